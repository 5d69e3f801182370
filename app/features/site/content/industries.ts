import type { Industry } from "./types";

// The ten industries, in alphabetical slug order. Slugs stay without accents; display names carry them.
export const industries: Industry[] = [
  {
    slug: "aeroespacial",
    name: "Aeroespacial",
    projectPhrase: "un proyecto aeroespacial",
    sectorPhrase: "la industria aeroespacial",
    headline: "Piezas aeroespaciales con trazabilidad de la colada a la inspección final",
    summary:
      "Maquinado de 5 ejes en aluminio 7075 y titanio, herramentales de línea y documentación con trazabilidad para proveedores de la cadena aeroespacial.",
    intro:
      "Querétaro concentra buena parte de la industria aeroespacial del país. Trabajamos con proveedores de primer y segundo nivel que necesitan piezas de geometría compleja, herramentales de ensamble y soportes de prueba, con certificado de material, registro de cada operación e inspección dimensional documentada.",
    challenges: [
      {
        title: "Trazabilidad exigida por el cliente final",
        text: "Cada pieza debe ligarse a su colada de material, a su orden de trabajo y a su reporte de inspección, sin huecos en la documentación.",
      },
      {
        title: "Geometrías complejas en materiales difíciles",
        text: "Bolsillos profundos, paredes delgadas y superficies de forma libre en 7075 o titanio grado 5 que se deforman si la estrategia de corte no es la correcta.",
      },
      {
        title: "Herramentales que no pueden esperar",
        text: "Un dispositivo de ensamble o de inspección que falta detiene una línea completa; se necesita en días, no en meses.",
      },
      {
        title: "Inspección de primer artículo",
        text: "El cliente pide reporte FAI con cada característica del plano numerada y medida antes de liberar la serie.",
      },
    ],
    services: [
      {
        slug: "maquinado-cnc",
        text: "Fresado de 5 ejes en una sola sujeción para piezas estructurales, soportes y carcasas con tolerancias de ±0.01 mm en cotas críticas.",
      },
      {
        slug: "ingenieria-cad",
        text: "Diseño de dispositivos de ensamble, escantillones y calibres con GD&T y validación por FEA.",
      },
      {
        slug: "ingenieria-inversa",
        text: "Reconstrucción de herramentales y refacciones sin plano, con mapa de desviaciones contra la pieza original.",
      },
      {
        slug: "prototipado-rapido",
        text: "Prototipos en SLS y SLA para validar ajuste de ductos, cubiertas y soportes antes de maquinar en metal.",
      },
    ],
    materials: [
      "Aluminio 7075-T6 y 2024-T3",
      "Aluminio 6061-T6 para herramentales",
      "Titanio grado 5 (Ti-6Al-4V)",
      "Inoxidable 17-4 PH y 15-5 PH",
      "PEEK y PEI (Ultem)",
    ],
    standards: [
      "Requisitos de calidad AS9100D del cliente",
      "Inspección de primer artículo conforme a AS9102",
      "Certificados de material EN 10204 3.1 por colada",
      "Trazabilidad por lote, orden de trabajo y operador",
    ],
    example: {
      title: "Dispositivo de ensamble para panel de acceso",
      text: "Un proveedor de estructuras necesitaba un dispositivo para posicionar y barrenar un panel de acceso. Diseñamos el dispositivo con GD&T, lo validamos por FEA y maquinamos la base y los localizadores en aluminio 6061 y acero 4140 templado. Se entregó con reporte de CMM de cada localizador.",
      figures: [
        "Entrega en 14 días hábiles",
        "Posición de localizadores dentro de ±0.02 mm",
        "38 características medidas en CMM",
      ],
    },
  },
  {
    slug: "agricola",
    name: "Agrícola",
    projectPhrase: "un proyecto agrícola",
    sectorPhrase: "el sector agrícola",
    headline: "Refacciones y equipo agrícola que aguantan la temporada completa",
    summary:
      "Piezas de lámina, maquinado y soldadura para implementos, sistemas de riego y equipo de poscosecha, con acabados resistentes a la corrosión.",
    intro:
      "El equipo agrícola trabaja a la intemperie, con polvo, fertilizantes y humedad, y una falla en plena temporada cuesta la cosecha. Fabricamos refacciones, adaptaciones de implementos y equipo de poscosecha con materiales y acabados pensados para ese uso, en plazos que respetan el calendario del campo.",
    challenges: [
      {
        title: "Refacciones descontinuadas o importadas",
        text: "Piezas de implementos extranjeros que tardan semanas en llegar o que el fabricante ya no surte.",
      },
      {
        title: "Desgaste y corrosión",
        text: "Cuchillas, discos, guías y soportes que se desgastan con la tierra y se corroen con agroquímicos.",
      },
      {
        title: "Adaptaciones a la medida",
        text: "Implementos que deben adaptarse a otro tractor, otro cultivo u otra separación entre surcos.",
      },
      {
        title: "Plazos de temporada",
        text: "Las piezas se necesitan antes de la siembra o la cosecha; una semana de retraso ya no sirve.",
      },
    ],
    services: [
      {
        slug: "ingenieria-inversa",
        text: "Escaneamos la refacción desgastada, reconstruimos la geometría original y dejamos el plano para futuras reórdenes.",
      },
      {
        slug: "lamina",
        text: "Corte láser y doblez de tolvas, guardas, soportes y bastidores en acero al carbono y galvanizado.",
      },
      {
        slug: "maquinado-cnc",
        text: "Flechas, bujes, mazas y engranes maquinados en acero 4140 y bronce, con tratamiento térmico cuando se requiere.",
      },
      {
        slug: "diseno-industrial",
        text: "Diseño de equipo de poscosecha y de adaptaciones de implementos con revisión DFM para fabricación en serie corta.",
      },
    ],
    materials: [
      "Acero A36 y lámina galvanizada",
      "Acero 4140 y 1045 con tratamiento térmico",
      "Placa antidesgaste de 400 HB",
      "Inoxidable 304 para contacto con agroquímicos",
      "Bronce SAE 660 para bujes",
      "UHMW y poliuretano para guías y raspadores",
    ],
    standards: [
      "Seguridad de maquinaria agrícola conforme a ISO 4254",
      "Soldadura estructural según AWS D1.1",
      "Galvanizado por inmersión en caliente ASTM A123",
      "Pintura con prueba de niebla salina ASTM B117",
    ],
    example: {
      title: "Refacción de sembradora sin plano",
      text: "Un distribuidor de maquinaria necesitaba reponer la maza de un disco abridor de una sembradora importada, ya descontinuada. Escaneamos una pieza usada, reconstruimos el modelo corrigiendo el desgaste y maquinamos un primer lote en acero 4140 templado.",
      figures: [
        "Modelo y plano en 6 días hábiles",
        "Primer lote de 120 piezas en 12 días hábiles",
        "Dureza de 28 a 32 HRC verificada por lote",
      ],
    },
  },
  {
    slug: "alimentos",
    name: "Alimentos y bebidas",
    projectPhrase: "un proyecto de alimentos y bebidas",
    sectorPhrase: "la industria de alimentos y bebidas",
    headline: "Equipo en acero inoxidable con diseño sanitario, listo para auditoría",
    summary:
      "Guardas, transportadores, tolvas y piezas de cambio de formato en inoxidable 304/316 y plásticos grado alimenticio, con diseño sanitario.",
    intro:
      "En una línea de alimentos o bebidas cada pieza se lava todos los días y cada cambio de formato cuesta minutos de producción. Diseñamos y fabricamos equipo, guardas y partes de cambio en acero inoxidable y plásticos grado alimenticio, sin rincones donde se acumule producto y con acabados que pasan una auditoría.",
    challenges: [
      {
        title: "Diseño sanitario",
        text: "Esquinas, ranuras y soldaduras donde se acumula producto y crecen bacterias; todo debe poder limpiarse y drenar.",
      },
      {
        title: "Cambios de formato lentos",
        text: "Guías, estrellas y tornillos sinfín que tardan en cambiarse o que se fabrican de forma distinta cada vez.",
      },
      {
        title: "Materiales aprobados para contacto",
        text: "El área de calidad exige materiales con cumplimiento para contacto con alimentos y su documentación.",
      },
      {
        title: "Seguridad del operador",
        text: "Guardas que protejan sin estorbar la limpieza ni la inspección visual de la línea.",
      },
    ],
    services: [
      {
        slug: "lamina",
        text: "Tolvas, charolas, guardas y bastidores en inoxidable 304 con soldadura TIG pulida y esquinas redondeadas.",
      },
      {
        slug: "maquinado-cnc",
        text: "Estrellas, guías, tornillos sinfín y partes de cambio de formato en UHMW, acetal e inoxidable 316L.",
      },
      {
        slug: "ingenieria-cad",
        text: "Diseño sanitario con pendientes de drenado, radios mínimos y ensambles que se desmontan sin herramientas.",
      },
      {
        slug: "ensamble-contrato",
        text: "Fabricación de juegos completos de cambio de formato, identificados y empacados por presentación.",
      },
    ],
    materials: [
      "Acero inoxidable 304 y 316L",
      "UHMW grado alimenticio",
      "Acetal (POM) grado alimenticio",
      "Policarbonato para guardas",
      "Nylon y PTFE para guías y bujes",
    ],
    standards: [
      "Materiales conformes a FDA 21 CFR para contacto con alimentos",
      "Criterios de diseño sanitario 3-A y EHEDG",
      "Prácticas de higiene NOM-251-SSA1-2009",
      "Acabado superficial Ra ≤ 0.8 µm en zonas de contacto",
    ],
    example: {
      title: "Juego de cambio de formato para línea de envasado",
      text: "Una planta de bebidas necesitaba reducir el tiempo de cambio entre dos presentaciones de botella. Rediseñamos estrellas y guías en UHMW con localizadores de acción rápida e identificamos cada pieza por color y número de formato.",
      figures: [
        "Cambio de formato de 45 a 12 minutos",
        "Entrega en 15 días hábiles",
        "Juego completo de 26 piezas por presentación",
      ],
    },
  },
  {
    slug: "automotriz",
    name: "Automotriz",
    projectPhrase: "un proyecto automotriz",
    sectorPhrase: "la industria automotriz",
    headline: "Dispositivos y herramentales automotrices con documentación PPAP",
    summary:
      "Dispositivos de control, escantillones, herramentales de línea y piezas de serie para proveedores automotrices, con PPAP y documentación IATF 16949.",
    intro:
      "El Bajío es uno de los corredores automotrices más grandes del mundo. Atendemos a plantas armadoras y a proveedores de primer y segundo nivel con dispositivos de control, herramentales de ensamble, refacciones de línea y piezas de serie, en los tiempos y con la documentación que exige la cadena.",
    challenges: [
      {
        title: "Lanzamientos con fechas fijas",
        text: "Los dispositivos de control y ensamble deben estar validados antes del arranque, sin margen de retraso.",
      },
      {
        title: "Documentación de calidad",
        text: "El cliente exige PPAP, estudios de capacidad y R&R del dispositivo antes de liberar la pieza o el herramental.",
      },
      {
        title: "Refacciones de línea críticas",
        text: "Una pinza, un nido o una guía rota detiene la estación; la refacción se necesita en horas o pocos días.",
      },
      {
        title: "Cambios de ingeniería",
        text: "Cada cambio de nivel del plano del cliente obliga a modificar dispositivos y herramentales sin perder trazabilidad.",
      },
    ],
    services: [
      {
        slug: "ingenieria-cad",
        text: "Diseño de dispositivos de control, nidos y herramentales de ensamble con GD&T y análisis de tolerancias.",
      },
      {
        slug: "maquinado-cnc",
        text: "Maquinado de localizadores, nidos, pinzas y placas base en acero D2 templado y aluminio 6061.",
      },
      {
        slug: "moldes-inyeccion",
        text: "Moldes piloto para validar piezas plásticas en el material final antes del molde de producción.",
      },
      {
        slug: "ensamble-contrato",
        text: "Series de subensambles con plan de control, registros por lote y empaque retornable del cliente.",
      },
    ],
    materials: [
      "Aluminio 6061-T6 y 5083 para placas base",
      "Acero D2 y 4140 templado para localizadores",
      "Nylon PA66 con 30 % de fibra de vidrio",
      "Poliuretano para nidos y topes",
      "Acetal (POM) y UHMW para guías",
    ],
    standards: [
      "PPAP nivel 3 según el manual AIAG",
      "Requisitos IATF 16949 del cliente",
      "Estudios R&R y capacidad Cpk ≥ 1.33",
      "APQP, AMEF de proceso y plan de control",
    ],
    example: {
      title: "Dispositivo de control para soporte estampado",
      text: "Un proveedor de segundo nivel necesitaba un dispositivo de control atributivo para un soporte de chasis antes del arranque de producción. Diseñamos el dispositivo con pernos pasa/no pasa y pinzas de sujeción, lo maquinamos en aluminio y acero D2 y lo entregamos con reporte de CMM y estudio R&R.",
      figures: [
        "Entrega en 12 días hábiles",
        "R&R del 8 % sobre la tolerancia",
        "Localizadores dentro de ±0.02 mm",
      ],
    },
  },
  {
    slug: "construccion",
    name: "Construcción",
    projectPhrase: "un proyecto de construcción",
    sectorPhrase: "el sector de la construcción",
    headline: "Herrajes, conexiones y fachadas que llegan a obra listos para instalar",
    summary:
      "Placas de conexión, herrajes, fachadas de lámina y componentes arquitectónicos en acero, aluminio e inoxidable, con cortes exactos y acabados durables.",
    intro:
      "En obra, una placa mal barrenada o una pieza fuera de medida se traduce en retrabajo en altura y días perdidos. Fabricamos conexiones, herrajes, paneles y componentes arquitectónicos directamente desde el modelo o el plano, con corte láser y doblez CNC para que todo llegue a obra listo para instalar.",
    challenges: [
      {
        title: "Piezas que no coinciden en obra",
        text: "Placas, anclas y herrajes cortados a mano que no coinciden con la estructura y obligan a corregir en sitio.",
      },
      {
        title: "Series repetitivas con variantes",
        text: "Cientos de piezas parecidas, cada una con pequeñas diferencias, que deben llegar identificadas por eje o nivel.",
      },
      {
        title: "Acabado a la intemperie",
        text: "Fachadas, barandales y herrajes que deben resistir sol, lluvia y contaminación durante años.",
      },
      {
        title: "Componentes arquitectónicos especiales",
        text: "Celosías, plafones y paneles perforados con diseño del arquitecto que nadie quiere fabricar en volumen bajo.",
      },
    ],
    services: [
      {
        slug: "lamina",
        text: "Corte láser de placas de conexión hasta 20 mm, paneles perforados y celosías, con doblez CNC de hasta 3,100 mm.",
      },
      {
        slug: "ingenieria-cad",
        text: "Despiece del modelo arquitectónico o estructural en planos de taller, con marcas por pieza y lista de materiales.",
      },
      {
        slug: "maquinado-cnc",
        text: "Herrajes, articulaciones y piezas de anclaje maquinadas en acero e inoxidable para sistemas de fachada.",
      },
      {
        slug: "prototipado-rapido",
        text: "Maquetas y muestras a escala para aprobar diseño y acabado con el cliente antes de fabricar la serie.",
      },
    ],
    materials: [
      "Acero estructural A36 y A572 grado 50",
      "Lámina galvanizada y lámina pintada",
      "Aluminio 5052 y 6063",
      "Inoxidable 304 y 316 para exteriores",
      "Acero intemperizable para fachadas",
    ],
    standards: [
      "Soldadura estructural según AWS D1.1",
      "Galvanizado por inmersión en caliente ASTM A123",
      "Acero estructural ASTM A36 y A572 con certificado de material",
      "Sistemas de pintura para ambientes C3 a C5 según ISO 12944",
    ],
    example: {
      title: "Celosía de fachada en aluminio",
      text: "Un despacho de arquitectura necesitaba una celosía de aluminio con un patrón distinto en cada panel. Convertimos el modelo en archivos de corte, fabricamos los paneles en aluminio 5052 de 3 mm con doblez perimetral y los entregamos pintados y marcados por nivel.",
      figures: [
        "180 paneles, todos distintos",
        "Entrega en 18 días hábiles",
        "Tolerancia de corte ±0.1 mm",
      ],
    },
  },
  {
    slug: "electronica",
    name: "Electrónica",
    projectPhrase: "un proyecto de electrónica",
    sectorPhrase: "la industria electrónica",
    headline: "Gabinetes y carcasas para equipo electrónico, del prototipo a la serie",
    summary:
      "Gabinetes de lámina, carcasas inyectadas, disipadores maquinados y ensamble electromecánico para fabricantes de equipo electrónico.",
    intro:
      "Un equipo electrónico necesita un gabinete que proteja, disipe calor, se ensamble rápido y se vea bien. Diseñamos y fabricamos gabinetes de lámina, carcasas plásticas, paneles frontales y disipadores, y ensamblamos el equipo con arneses y tarjetas que usted nos entrega.",
    challenges: [
      {
        title: "Gabinetes que no se adaptan al equipo",
        text: "Los gabinetes comerciales obligan a perforar, adaptar y aceptar un acabado que no corresponde al producto.",
      },
      {
        title: "Disipación de calor",
        text: "Componentes de potencia que se sobrecalientan porque el gabinete no tiene la ventilación o el disipador adecuado.",
      },
      {
        title: "Protección contra polvo y agua",
        text: "Equipos de campo que deben cumplir un grado IP específico sin complicar el ensamble ni el mantenimiento.",
      },
      {
        title: "Del prototipo a la serie",
        text: "La carcasa del prototipo se imprimió en 3D y ahora hay que pasarla a lámina o inyección sin rediseñar todo.",
      },
    ],
    services: [
      {
        slug: "lamina",
        text: "Gabinetes y chasis en lámina con insertos autoclinchables, persianas punzonadas y pintura electrostática.",
      },
      {
        slug: "moldes-inyeccion",
        text: "Carcasas en PC/ABS con molde piloto para validar y molde de producción para la serie.",
      },
      {
        slug: "diseno-industrial",
        text: "Diseño de carcasas y paneles frontales con revisión DFM para el proceso de la serie, no solo del prototipo.",
      },
      {
        slug: "ensamble-contrato",
        text: "Ensamble electromecánico con arneses, tarjetas del cliente, prueba funcional y empaque.",
      },
    ],
    materials: [
      "Aluminio 5052 en lámina y 6061 para disipadores",
      "Lámina rolada en frío y galvanizada",
      "Policarbonato y PC/ABS UL 94 V-0",
      "Acrílico y policarbonato para ventanas y paneles",
      "Juntas de silicón y EPDM",
    ],
    standards: [
      "Grado de protección IP según IEC 60529",
      "Gabinetes NEMA 250 tipo 1, 4 y 12",
      "Inflamabilidad de plásticos UL 94",
      "Ensamble conforme a IPC/WHMA-A-620 para arneses",
    ],
    example: {
      title: "Gabinete IP65 para controlador de campo",
      text: "Un fabricante de controladores de riego necesitaba pasar su gabinete de prototipo impreso a una serie en lámina. Rediseñamos el gabinete en aluminio 5052 con junta de silicón, placa de montaje interna y pintura electrostática, y ensamblamos el primer lote con sus tarjetas.",
      figures: [
        "Diseño para grado de protección IP65",
        "Primer lote de 300 unidades en 20 días hábiles",
        "Tiempo de ensamble reducido en 35 %",
      ],
    },
  },
  {
    slug: "energia",
    name: "Energía",
    projectPhrase: "un proyecto de energía",
    sectorPhrase: "el sector energético",
    headline: "Componentes para tableros, subestaciones y parques de generación",
    summary:
      "Gabinetes, barras de cobre, soportes y piezas maquinadas para tableros, subestaciones, parques solares y eólicos.",
    intro:
      "Los equipos de energía se instalan para operar veinte años o más, muchas veces a la intemperie y lejos de un taller. Fabricamos gabinetes, barras de cobre, soportes de estructura, piezas de mantenimiento y refacciones para tableros, subestaciones, parques solares y eólicos, con materiales y acabados adecuados a cada ambiente.",
    challenges: [
      {
        title: "Corrosión en sitio",
        text: "Soportes, tornillería y gabinetes en ambientes costeros, industriales o desérticos que se corroen antes de tiempo.",
      },
      {
        title: "Refacciones para equipo instalado",
        text: "Piezas de turbinas, seguidores solares o interruptores cuyo fabricante ya no las surte o tarda meses.",
      },
      {
        title: "Barras y conexiones eléctricas",
        text: "Barras de cobre con dobleces y barrenos exactos para que el tablero se ensamble sin forzar conexiones.",
      },
      {
        title: "Herramientas de mantenimiento",
        text: "Dispositivos especiales para montar, alinear o extraer componentes durante paros programados cortos.",
      },
    ],
    services: [
      {
        slug: "lamina",
        text: "Gabinetes, charolas y barras de cobre cortadas y dobladas en CNC, con barrenos a ±0.1 mm.",
      },
      {
        slug: "maquinado-cnc",
        text: "Bujes, flechas, bridas y piezas de mantenimiento en acero, inoxidable y bronce.",
      },
      {
        slug: "ingenieria-inversa",
        text: "Escaneo de refacciones de turbinas y equipo de patio, incluso en sitio, para reponerlas sin plano.",
      },
      {
        slug: "ingenieria-cad",
        text: "Diseño de herramientas de mantenimiento y soportes validados por FEA para cargas y viento.",
      },
    ],
    materials: [
      "Cobre C110 para barras y conexiones",
      "Acero galvanizado y acero A36",
      "Inoxidable 316 para ambientes costeros",
      "Aluminio 6061 y 6063",
      "Aislantes G-10 / FR4 y poliéster con fibra de vidrio",
    ],
    standards: [
      "Tableros de baja tensión conforme a IEC 61439",
      "Protección contra corrosión según ISO 12944",
      "Galvanizado por inmersión en caliente ASTM A123",
      "Gabinetes NEMA 250 y grado IP según IEC 60529",
    ],
    example: {
      title: "Barras de cobre para tableros de distribución",
      text: "Un integrador de tableros necesitaba estandarizar las barras de cobre de una familia de tableros que antes se cortaban y doblaban a mano. Desarrollamos los planos de cada barra, las cortamos y doblamos en CNC y las entregamos estañadas y marcadas por posición.",
      figures: [
        "64 números de parte documentados",
        "Entregas semanales en 5 días hábiles",
        "Ensamble de tablero 40 % más rápido",
      ],
    },
  },
  {
    slug: "industrial",
    name: "Industrial",
    projectPhrase: "un proyecto industrial",
    sectorPhrase: "el sector industrial",
    headline: "Maquinaria especial, refacciones y mejoras para líneas de producción",
    summary:
      "Máquinas especiales, refacciones, guardas y dispositivos para plantas de manufactura: diseño, fabricación, ensamble y puesta en marcha.",
    intro:
      "Toda planta tiene una estación que se puede automatizar, una refacción que tarda demasiado y una guarda que falta. Diseñamos y fabricamos máquinas especiales, transportadores, guardas de seguridad, dispositivos y refacciones de línea para que su planta produzca más con menos paros.",
    challenges: [
      {
        title: "Paros por refacciones",
        text: "Piezas de desgaste importadas o sin plano que dejan la línea detenida mientras llegan.",
      },
      {
        title: "Estaciones manuales lentas",
        text: "Operaciones repetitivas que limitan la capacidad de la línea y se pueden resolver con un dispositivo o una máquina sencilla.",
      },
      {
        title: "Seguridad de máquina",
        text: "Guardas y resguardos que faltan o que no cumplen con la evaluación de riesgos de la planta.",
      },
      {
        title: "Proveedores dispersos",
        text: "Un taller para maquinado, otro para lámina y otro para ensamble, y nadie responsable del resultado completo.",
      },
    ],
    services: [
      {
        slug: "ingenieria-cad",
        text: "Diseño de máquinas especiales, transportadores y dispositivos con cálculo de componentes y validación por FEA.",
      },
      {
        slug: "maquinado-cnc",
        text: "Refacciones de línea, engranes, flechas y piezas de desgaste con plano o a partir de la pieza usada.",
      },
      {
        slug: "lamina",
        text: "Guardas de seguridad en lámina perforada, perfil de aluminio y policarbonato, a la medida de su máquina.",
      },
      {
        slug: "ensamble-contrato",
        text: "Fabricación, ensamble y prueba de la máquina completa en nuestra planta antes de enviarla a la suya.",
      },
    ],
    materials: [
      "Acero 1045, 4140 y D2",
      "Aluminio 6061 y perfil estructural de aluminio",
      "Inoxidable 304",
      "UHMW, acetal (POM) y nylon",
      "Poliuretano de 70 a 95 Shore A",
      "Policarbonato para guardas",
    ],
    standards: [
      "Seguridad de maquinaria conforme a ISO 12100",
      "Guardas de seguridad según ISO 14120 e ISO 13857",
      "NOM-004-STPS-1999 sobre protección en maquinaria",
      "Tolerancias generales ISO 2768-m y GD&T ASME Y14.5",
    ],
    example: {
      title: "Estación de prensado de bujes",
      text: "Una planta de componentes ensamblaba bujes con prensa manual y tenía piezas rechazadas por desalineación. Diseñamos una estación neumática con nido de posicionamiento, guarda con cortina de seguridad y contador de ciclos, y la entregamos probada en nuestra planta.",
      figures: [
        "Tiempo de ciclo de 40 a 14 segundos",
        "Rechazo por desalineación de 3 % a 0.2 %",
        "Entrega en 25 días hábiles",
      ],
    },
  },
  {
    slug: "medica",
    name: "Médica",
    projectPhrase: "un proyecto médico",
    sectorPhrase: "el sector médico",
    headline: "Prototipos y componentes médicos con materiales biocompatibles",
    summary:
      "Prototipos y componentes para dispositivos médicos en titanio, inoxidable 316L y plásticos biocompatibles, con documentación para clientes con ISO 13485.",
    intro:
      "El desarrollo de un dispositivo médico exige muchas iteraciones de prototipo y, después, una fabricación documentada pieza por pieza. Apoyamos a fabricantes y a equipos de desarrollo con diseño, prototipos funcionales, componentes maquinados e inyectados y ensamble, con el registro que su sistema de calidad requiere.",
    challenges: [
      {
        title: "Muchas iteraciones de diseño",
        text: "Cada prueba con usuarios o con médicos genera cambios, y cada prototipo debe llegar en días para no frenar el desarrollo.",
      },
      {
        title: "Materiales biocompatibles",
        text: "El material debe tener evidencia de biocompatibilidad y certificado, y no todos los talleres lo manejan.",
      },
      {
        title: "Documentación para auditoría",
        text: "Registros de lote, certificados, reportes de inspección y control de cambios que su sistema de calidad debe poder auditar.",
      },
      {
        title: "Piezas pequeñas y precisas",
        text: "Componentes de pocos milímetros con tolerancias estrictas y acabado libre de rebabas.",
      },
    ],
    services: [
      {
        slug: "prototipado-rapido",
        text: "Prototipos en SLA con resinas biocompatibles y en SLS para pruebas de forma, ergonomía y función.",
      },
      {
        slug: "maquinado-cnc",
        text: "Componentes en titanio grado 5, inoxidable 316L y PEEK con tolerancias de hasta ±0.01 mm y acabado sin rebabas.",
      },
      {
        slug: "diseno-industrial",
        text: "Diseño de carcasas y dispositivos con enfoque en ergonomía, limpieza y uso por personal médico.",
      },
      {
        slug: "moldes-inyeccion",
        text: "Moldes piloto para validar componentes plásticos en grado médico antes de la producción.",
      },
    ],
    materials: [
      "Inoxidable 316L y 17-4 PH",
      "Titanio grado 5 (Ti-6Al-4V) y grado 23",
      "PEEK y PEI (Ultem)",
      "Policarbonato grado médico",
      "Resinas SLA biocompatibles",
      "Silicón grado médico",
    ],
    standards: [
      "Requisitos ISO 13485 del cliente",
      "Biocompatibilidad de materiales según ISO 10993",
      "Plásticos con certificación USP Clase VI",
      "Pasivado de inoxidable conforme a ASTM A967",
    ],
    example: {
      title: "Mango ergonómico para instrumento quirúrgico",
      text: "Un equipo de desarrollo necesitaba iterar la forma del mango de un instrumento antes de definir el diseño final. Imprimimos cinco versiones en SLA para pruebas con cirujanos y maquinamos la versión aprobada en PEEK con inserto de inoxidable 316L pasivado.",
      figures: [
        "5 iteraciones en 15 días hábiles",
        "Cada iteración en 3 días hábiles",
        "Tolerancia de ±0.02 mm en el alojamiento del inserto",
      ],
    },
  },
  {
    slug: "minera",
    name: "Minera",
    projectPhrase: "un proyecto de minería",
    sectorPhrase: "la minería",
    headline: "Piezas de desgaste en aceros endurecidos, sin esperar importaciones",
    summary:
      "Piezas de desgaste, bujes, flechas y refacciones en aceros endurecidos y placa antidesgaste para plantas de beneficio y equipo de mina.",
    intro:
      "En una mina el equipo trabaja con abrasión, impacto y turnos continuos, y una pieza importada puede tardar meses. Fabricamos piezas de desgaste, refacciones maquinadas y componentes soldados en aceros endurecidos y placa antidesgaste, con dureza verificada y entrega planeada según sus paros de mantenimiento.",
    challenges: [
      {
        title: "Desgaste acelerado",
        text: "Revestimientos, cuchillas, raspadores y chutes que se desgastan en semanas por abrasión e impacto.",
      },
      {
        title: "Refacciones con tiempos de importación largos",
        text: "Piezas de trituradoras, cribas y bandas que el fabricante original entrega en 8 a 16 semanas.",
      },
      {
        title: "Piezas sin plano",
        text: "Equipos con décadas de servicio y modificaciones en campo, sin documentación actualizada.",
      },
      {
        title: "Paros de mantenimiento cortos",
        text: "Las piezas deben llegar completas y listas para montar antes de la ventana de paro.",
      },
    ],
    services: [
      {
        slug: "ingenieria-inversa",
        text: "Escaneo de piezas desgastadas, incluso en su planta, para reconstruir la geometría original y documentarla.",
      },
      {
        slug: "maquinado-cnc",
        text: "Flechas, bujes, poleas y engranes en aceros 4140 y 4340 templados, y bronce para bujes de desgaste.",
      },
      {
        slug: "lamina",
        text: "Corte láser de placa antidesgaste de hasta 20 mm para revestimientos, cuchillas y chutes.",
      },
      {
        slug: "ingenieria-cad",
        text: "Rediseño de piezas de desgaste para prolongar su vida útil y facilitar su reemplazo en campo.",
      },
    ],
    materials: [
      "Placa antidesgaste de 400 y 500 HB",
      "Aceros 4140 y 4340 templados y revenidos",
      "Acero D2 y recargue duro por soldadura",
      "Bronce SAE 660 y bronce al aluminio",
      "Poliuretano de 90 a 95 Shore A",
      "UHMW para revestimientos de baja fricción",
    ],
    standards: [
      "Reporte de dureza Brinell o Rockwell por lote",
      "Certificados de material EN 10204 3.1",
      "Soldadura según AWS D1.1",
      "Seguridad en minas conforme a NOM-023-STPS-2012",
    ],
    example: {
      title: "Revestimientos para chute de transferencia",
      text: "Una planta de beneficio reemplazaba cada seis semanas los revestimientos de un chute de transferencia. Escaneamos el chute en sitio, rediseñamos los revestimientos en segmentos atornillables de placa de 500 HB y los cortamos en láser, marcados por posición.",
      figures: [
        "Vida útil de 6 a 15 semanas",
        "Cambio en un solo turno de paro",
        "Entrega en 10 días hábiles",
      ],
    },
  },
];

export function getIndustry(slug: string): Industry | undefined {
  return industries.find((industry) => industry.slug === slug);
}
