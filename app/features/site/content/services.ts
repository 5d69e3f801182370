import type { Service } from "./types";

// The eight services, in the order they appear on /servicios.
export const services: Service[] = [
  {
    slug: "diseno-industrial",
    name: "Diseño industrial y de producto",
    summary:
      "Del concepto al producto fabricable: ergonomía, forma, renders y revisión DFM/DFA antes de invertir en herramental.",
    description: [
      "Diseñamos productos, carcasas, equipos y accesorios pensando desde el primer boceto en cómo se van a fabricar. Partimos de su necesidad, del usuario final y del volumen esperado, y proponemos conceptos que se pueden maquinar, doblar, inyectar o imprimir sin rediseños costosos.",
      "Cada concepto pasa por una revisión DFM/DFA con nuestro equipo de planta: espesores de pared, ángulos de salida, radios de doblez, número de piezas y secuencia de ensamble. Así usted decide con costos y plazos reales, no con supuestos.",
      "Entregamos bocetos, modelos de volumen, renders fotorrealistas y el modelo 3D listo para ingeniería de detalle o para prototipo.",
    ],
    capabilities: [
      "Investigación de usuario, análisis ergonómico y estudio de antropometría",
      "Bocetos, modelos de volumen y 2 a 3 propuestas de concepto por proyecto",
      "Renders fotorrealistas y animaciones de ensamble para presentación o venta",
      "Revisión DFM/DFA para maquinado, lámina, inyección e impresión 3D",
      "Selección de materiales, acabados, color y textura",
      "Entrega en formatos nativos y neutros: SLDPRT, STEP, IGES y PDF",
    ],
    leadTime: "Conceptos en 5 a 10 días hábiles",
  },
  {
    slug: "ingenieria-cad",
    name: "Ingeniería mecánica y CAD",
    summary:
      "Modelado 3D, planos de fabricación con GD&T y simulación FEA para piezas, ensambles y equipos completos.",
    description: [
      "Convertimos conceptos, croquis o piezas existentes en modelos 3D paramétricos y planos de fabricación completos. Acotamos con GD&T conforme a ASME Y14.5 para que cualquier taller, incluido el nuestro, fabrique la pieza igual cada vez.",
      "Validamos el diseño antes de cortar material: análisis por elemento finito (FEA) estático, de fatiga y modal, cálculo de tornillería y ajustes, y estudios de tolerancias acumuladas en ensambles.",
      "Trabajamos dentro de su sistema de control de cambios: numeración de planos, niveles de revisión y lista de materiales (BOM) exportable a su ERP.",
    ],
    capabilities: [
      "Modelado 3D paramétrico de piezas, ensambles y estructuras soldadas",
      "Planos de fabricación con GD&T según ASME Y14.5 o ISO 1101",
      "Simulación FEA estática, de fatiga y modal; reporte con factor de seguridad",
      "Análisis de tolerancias acumuladas (peor caso y estadístico)",
      "Diseño de dispositivos de sujeción, escantillones y calibres pasa/no pasa",
      "Lista de materiales (BOM) y control de revisiones de cada plano",
    ],
    leadTime: "Planos de pieza en 3 a 5 días hábiles",
  },
  {
    slug: "prototipado-rapido",
    name: "Prototipado rápido",
    summary:
      "Impresión 3D FDM, SLA y SLS para prototipos de forma, ajuste y función. Piezas funcionales en días, no semanas.",
    description: [
      "Fabricamos prototipos para validar forma, ajuste y función antes de comprometer un molde o una serie de maquinado. Elegimos la tecnología según lo que usted necesita probar: resistencia, detalle, transparencia o costo.",
      "FDM para piezas funcionales y dispositivos de línea en plásticos de ingeniería; SLA para detalle fino y superficies lisas; SLS en nylon PA12 para piezas resistentes sin soportes y series cortas de hasta algunos cientos de unidades.",
      "Si el prototipo requiere metal, lo maquinamos en CNC con el mismo modelo, para que la transición a producción no cambie la geometría.",
    ],
    capabilities: [
      "FDM: volumen hasta 500 × 500 × 500 mm; PLA, PETG, ABS, ASA, PC, nylon con fibra de carbono",
      "SLA: volumen hasta 335 × 200 × 300 mm; resinas estándar, rígidas, flexibles y transparentes",
      "SLS: volumen hasta 340 × 340 × 600 mm; nylon PA12 y PA12 con carga de vidrio",
      "Tolerancia típica: ±0.1 mm en SLA, ±0.2 mm en FDM y ±0.3 mm o ±0.3 % en SLS",
      "Acabados: lijado, fondo primario, pintura, insertos roscados de latón y ensamble",
    ],
    leadTime: "Prototipos en 2 a 5 días hábiles",
  },
  {
    slug: "maquinado-cnc",
    name: "Maquinado CNC",
    summary:
      "Fresado de 3 y 5 ejes y torneado CNC en aluminio, acero, inoxidable y plásticos de ingeniería, con tolerancias de ±0.05 mm.",
    description: [
      "Maquinamos piezas unitarias, prototipos y series de producción de hasta algunos miles de piezas. Los centros de 5 ejes resuelven geometrías complejas en una sola sujeción, lo que reduce errores de posición y tiempo de entrega.",
      "Trabajamos tolerancias generales de ±0.05 mm y, con plano PDF que las indique, cotas críticas de hasta ±0.01 mm. Cada lote sale con reporte dimensional; las piezas críticas se inspeccionan en máquina de medición por coordenadas (CMM).",
      "Coordinamos los procesos secundarios con proveedores calificados: anodizado, tratamiento térmico, pavonado, zincado, pasivado y pintura electrostática.",
    ],
    capabilities: [
      "Fresado de 5 ejes: piezas de hasta 650 × 520 × 475 mm",
      "Fresado de 3 ejes: carrera de hasta 1,020 × 510 × 560 mm",
      "Torneado CNC con herramienta motorizada: hasta Ø 350 mm × 600 mm; barra de hasta Ø 65 mm",
      "Tolerancia general ±0.05 mm; cotas críticas hasta ±0.01 mm con plano; rugosidad hasta Ra 0.8 µm",
      "Aluminio 6061, 7075 y 5083; acero 1018, 1045, 4140 y D2; inoxidable 303, 304 y 316L; bronce, latón y titanio grado 5",
      "Plásticos de ingeniería: acetal (POM), nylon, UHMW, PEEK, policarbonato y acrílico",
    ],
    leadTime: "Piezas maquinadas en 5 a 10 días hábiles",
  },
  {
    slug: "lamina",
    name: "Corte láser, punzonado y doblez de lámina",
    summary:
      "Corte láser de fibra, punzonado CNC y doblez de lámina para gabinetes, soportes, guardas y estructuras ligeras.",
    description: [
      "Cortamos, punzonamos y doblamos lámina de acero, inoxidable y aluminio a partir de su archivo DXF, DWG o modelo 3D. Generamos el desarrollo plano de cada pieza con las deducciones de doblez de nuestras propias herramientas, así que la pieza doblada coincide con el modelo.",
      "Integramos el proceso completo: corte, doblez, insertos autoclinchables, soldadura MIG/TIG, acabado y ensamble. Usted recibe gabinetes, chasis o guardas terminados, no un lote de piezas sueltas.",
      "Para series repetitivas mantenemos programas y herramientas registrados por número de parte, de modo que cada reorden sale igual que la anterior.",
    ],
    capabilities: [
      "Láser de fibra de 6 kW con mesa de 3,000 × 1,500 mm",
      "Espesores de corte: acero al carbono hasta 20 mm, inoxidable hasta 12 mm, aluminio hasta 10 mm",
      "Punzonadora CNC de torreta de 30 t para persianas, embutidos y barrenos repetitivos",
      "Doblez CNC hasta 3,100 mm de largo con prensa de 135 t",
      "Tolerancia de corte ±0.1 mm; doblez ±0.5° y ±0.2 mm entre dobleces",
      "Insertos autoclinchables, soldadura MIG/TIG, pintura electrostática y galvanizado",
    ],
    leadTime: "Piezas de lámina en 3 a 7 días hábiles",
  },
  {
    slug: "moldes-inyeccion",
    name: "Moldes e inyección de plástico",
    summary:
      "Moldes piloto en aluminio y moldes de producción en acero, con inyección de piezas técnicas en nuestra planta.",
    description: [
      "Diseñamos y fabricamos moldes para inyección de plástico con análisis de llenado, revisión de ángulos de salida y espesores, y ubicación de compuertas y botadores acordada con usted antes de maquinar.",
      "El molde piloto en aluminio 7075 es la forma más rápida de tener piezas en el material final: sirve para validación, pruebas de campo y primeras series de hasta 10,000 piezas. El molde de producción en acero P20 o H13 soporta cientos de miles de ciclos.",
      "Inyectamos en planta con prensas de 120 y 250 t. Entregamos reporte de primera pieza y, si usted lo requiere, el molde queda bajo su propiedad y resguardo.",
    ],
    capabilities: [
      "Moldes piloto en aluminio 7075: hasta 10,000 piezas",
      "Moldes de producción en acero P20 y H13 con insertos templados: más de 500,000 ciclos",
      "Inyectoras de 120 y 250 t; piezas de hasta 600 g de peso inyectado",
      "PP, ABS, PC, PC/ABS, nylon PA6 y PA66 con fibra de vidrio, acetal (POM) y TPE",
      "Electroerosión de penetración y de hilo para cavidades, costillas y detalles finos",
      "Texturizado, pulido espejo, sobreinyección e insertos metálicos",
    ],
    leadTime: "Molde piloto en 15 a 25 días hábiles",
  },
  {
    slug: "ingenieria-inversa",
    name: "Ingeniería inversa y escaneo 3D",
    summary:
      "Escaneo 3D y medición para reconstruir refacciones sin plano, documentar piezas existentes y comparar contra CAD.",
    description: [
      "Cuando una refacción ya no se consigue o el plano original se perdió, escaneamos la pieza, la medimos y reconstruimos un modelo 3D paramétrico con planos de fabricación. Después la fabricamos, o usted se queda con la documentación.",
      "Combinamos escáner de luz estructurada para superficies complejas con brazo de medición y CMM para cotas funcionales: barrenos, ajustes y roscas. El resultado es un modelo de diseño, no solo una malla.",
      "También comparamos piezas fabricadas contra su modelo CAD y entregamos un mapa de color de desviaciones, útil para validar moldes, fundiciones y proveedores.",
    ],
    capabilities: [
      "Escáner de luz estructurada con precisión de 0.02 mm",
      "Piezas desde 10 mm hasta 3 m; piezas grandes con brazo de medición portátil",
      "Modelo paramétrico en STEP o SLDPRT con planos de fabricación y GD&T",
      "Mapa de desviaciones contra CAD e informe de inspección",
      "Escaneo en su planta para equipos que no se pueden desmontar",
    ],
    leadTime: "Modelo reconstruido en 5 a 8 días hábiles",
  },
  {
    slug: "ensamble-contrato",
    name: "Ensamble y manufactura por contrato",
    summary:
      "Series cortas y medianas con abastecimiento, ensamble, control de calidad y empaque bajo su número de parte.",
    description: [
      "Fabricamos y ensamblamos su producto completo: piezas maquinadas, de lámina, inyectadas e impresas, más componentes comprados como tornillería, rodamientos, motores y electrónica. Usted recibe un solo producto terminado y una sola factura.",
      "Cada producto tiene hoja de proceso, instrucciones de ensamble con imágenes y plan de control. Registramos lotes de material y resultados de pruebas funcionales para que cada unidad sea rastreable.",
      "Empacamos con su etiqueta y en su empaque, y enviamos a su planta o a su cliente. Operamos con programas de entrega escalonados y órdenes abiertas.",
    ],
    capabilities: [
      "Series de 50 a 5,000 unidades por lote",
      "Abastecimiento de componentes comerciales y administración de inventario en planta",
      "Ensamble mecánico y electromecánico; arneses y cableado sencillo",
      "Pruebas funcionales, plan de control y registros por lote",
      "Empaque individual, etiquetado con código de barras y embalaje para exportación",
    ],
    leadTime: "Primer lote en 15 a 30 días hábiles",
  },
];

export function getService(slug: string): Service | undefined {
  return services.find((service) => service.slug === slug);
}
