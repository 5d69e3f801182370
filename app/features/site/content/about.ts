import { siteConfig } from "~/services/site-config/site-config";

// Editorial content of the "Nosotros" page (/about).

export type AboutContent = {
  headline: string;
  intro: string[];
  values: { title: string; text: string }[];
  figures: { value: string; label: string }[];
  plant: string[];
  team: string[];
};

export const about: AboutContent = {
  headline: "Ingeniería y manufactura bajo un mismo techo, en Querétaro desde 2015",
  intro: [
    "Forja Diseño y Manufactura nació en marzo de 2015 en Querétaro como un taller de maquinado y diseño mecánico con tres personas y dos máquinas. Los primeros clientes fueron proveedores automotrices y aeroespaciales del Bajío que necesitaban herramentales y refacciones con plazos que los talleres grandes no atendían.",
    "Con el tiempo sumamos corte láser y doblez de lámina, impresión 3D, escaneo 3D, moldes e inyección de plástico y ensamble por contrato. Hoy diseñamos y fabricamos en una sola planta, desde el primer boceto hasta la pieza empacada en su almacén.",
    "Trabajamos así porque un proyecto sale mejor cuando quien diseña se sienta junto a quien fabrica. Cada diseño se revisa con criterios de manufactura antes de liberarse, y cada problema de planta regresa a ingeniería el mismo día.",
  ],
  values: [
    {
      title: "Lo que cotizamos, lo cumplimos",
      text: "El plazo y el precio de la cotización son compromisos. Si algo cambia, se lo avisamos antes de que afecte su programa, no después.",
    },
    {
      title: "Diseñamos para fabricar",
      text: "Cada modelo pasa por revisión DFM con el equipo de planta. Evitamos tolerancias innecesarias, operaciones de más y piezas que nadie puede ensamblar.",
    },
    {
      title: "Medimos, no suponemos",
      text: "Las cotas críticas se verifican en CMM y cada entrega lleva su registro. Si una pieza no cumple, no sale de planta.",
    },
    {
      title: "Sus diseños son suyos",
      text: "Sus archivos se usan solo para su proyecto, con acceso restringido, y firmamos acuerdo de confidencialidad cuando usted lo solicita.",
    },
  ],
  figures: [
    { value: "2015", label: "Año de fundación en Querétaro" },
    { value: "3,200 m²", label: "De planta de manufactura" },
    { value: "85", label: "Personas entre ingeniería, planta y calidad" },
    { value: "+1,800", label: "Proyectos entregados" },
  ],
  plant: [
    `Nuestra planta de 3,200 m² está en el ${siteConfig.address.street}, en ${siteConfig.address.locality}, a 20 minutos del aeropuerto y con acceso directo a la carretera 57. Ahí están ingeniería, producción, metrología y almacén.`,
    "Maquinado: 2 centros de maquinado de 5 ejes (piezas de hasta 650 × 520 × 475 mm), 4 centros de maquinado verticales de 3 ejes (carrera de hasta 1,020 × 510 × 560 mm) y 2 tornos CNC con herramienta motorizada (hasta Ø 350 mm).",
    "Lámina: 1 láser de fibra de 6 kW con mesa de 3,000 × 1,500 mm, 1 punzonadora CNC de torreta de 30 t, 2 prensas dobladoras CNC de 135 t y 60 t, y celdas de soldadura MIG y TIG.",
    "Moldes e inyección: 1 electroerosionadora de penetración, 1 electroerosionadora de hilo y 2 inyectoras de 120 t y 250 t.",
    "Prototipado y escaneo: 6 impresoras FDM, 2 impresoras SLA, 1 impresora SLS de nylon y 1 escáner 3D de luz estructurada con precisión de 0.02 mm.",
    "Metrología: sala con temperatura controlada a 20 °C, 1 máquina de medición por coordenadas (CMM) de 700 × 1,000 × 600 mm, 1 brazo de medición portátil con escáner láser, rugosímetro, durómetro y calibradores con certificado de calibración vigente.",
  ],
  team: [
    "Somos 85 personas: ingenieros de diseño y de manufactura, programadores CNC, operadores, técnicos de moldes, inspectores de calidad y personal de compras y logística. La mayoría se formó en las universidades y escuelas técnicas de Querétaro y Guanajuato.",
    "Cada proyecto tiene un ingeniero responsable desde la cotización hasta la entrega. Usted habla con una sola persona que conoce su pieza, su plano y su fecha.",
    "Nuestro sistema de gestión de calidad está alineado a ISO 9001:2015. Cada orden tiene hoja de proceso, registro de material por lote e inspección de primera pieza; las cotas críticas se miden en CMM y los instrumentos se calibran con laboratorios acreditados. Cuando usted lo requiere, entregamos reporte dimensional, certificados de material y documentación PPAP o FAI.",
  ],
};
