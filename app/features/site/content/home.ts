// Editorial content of the home page (/).

export type HomeContent = {
  headline: string;
  subheadline: string;
  process: { title: string; text: string }[];
  figures: { value: string; label: string }[];
  reasons: { title: string; text: string }[];
};

export const home: HomeContent = {
  headline: "Diseñamos y fabricamos sus piezas, del primer boceto a la serie",
  subheadline:
    "Diseño industrial, ingeniería CAD, maquinado CNC, lámina, moldes e impresión 3D en una sola planta en Querétaro. Suba su modelo 3D o plano y reciba su cotización en un día hábil; si el proyecto incluye diseño, moldes o ensamble, en dos a tres.",
  process: [
    {
      title: "Cotización",
      text: "Suba su modelo 3D o plano y describa material, cantidad y fecha. Con el modelo o un plano completo, le enviamos precio con IVA y plazo en 1 día hábil.",
    },
    {
      title: "Ingeniería",
      text: "Revisamos su diseño con criterios DFM, confirmamos tolerancias y le proponemos mejoras que bajan costo o plazo antes de fabricar.",
    },
    {
      title: "Fabricación",
      text: "Maquinamos, cortamos, doblamos, inyectamos o imprimimos en nuestra planta, con inspección de primera pieza y cotas críticas medidas en CMM.",
    },
    {
      title: "Entrega",
      text: "Recibe sus piezas por paquetería o las recoge en planta, con certificado de conformidad y factura CFDI 4.0.",
    },
  ],
  figures: [
    { value: "+1,800", label: "Proyectos entregados desde 2015" },
    { value: "1 día hábil", label: "Para cotizar una pieza con modelo 3D o plano" },
    { value: "±0.01 mm", label: "Tolerancia en cotas críticas" },
    { value: "96 %", label: "Entregas a tiempo en el último año" },
  ],
  reasons: [
    {
      title: "Un solo proveedor responsable",
      text: "Diseño, ingeniería, fabricación y ensamble en la misma planta. Un ingeniero a cargo de su proyecto, de la cotización a la entrega.",
    },
    {
      title: "Ingeniería que baja costos",
      text: "Revisamos cada pieza para fabricarla con menos operaciones y sin tolerancias innecesarias. Usted paga por lo que su pieza necesita.",
    },
    {
      title: "Calidad medida y documentada",
      text: "Sala de metrología con CMM, registro por lote y certificados de material. Si una pieza no cumple con el plano, la reponemos.",
    },
  ],
};
