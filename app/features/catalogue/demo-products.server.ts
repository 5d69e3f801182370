// The demo catalogue (CONTENT.md): a dozen standard items with natural prices (IVA included), realistic
// SKUs, one item on order and one almost sold out. No images: the pages show a neutral tile.

export interface DemoProduct {
  sku: string;
  /** Short and stable: /catalogo/{slug}. */
  slug: string;
  name: string;
  category: string;
  unit: string;
  stock: number;
  minOrder: number;
  /** What the public sees, IVA included, in centavos. */
  grossCentavos: number;
  shortDescription: string;
  description: string;
}

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    sku: "FOR-ESC-100",
    slug: "escuadra-refuerzo-acero-a36-100-mm",
    name: "Escuadra de refuerzo de acero A36, 100 × 100 mm",
    category: "Soportes y escuadras",
    unit: "pieza",
    stock: 240,
    minOrder: 10,
    grossCentavos: 8_900,
    shortDescription: "Escuadra a 90° de placa de 1/4 in con costilla, para reforzar uniones de bastidores, mesas y estructuras atornilladas.",
    description: `Escuadra cortada con láser y doblada en prensa a partir de placa de acero A36 de 6.35 mm (1/4 in), con costilla central que evita que se abra bajo carga.

## Especificaciones
- Alas: 100 × 100 mm, ancho 50 mm.
- Barrenos: 2 por ala, Ø 11 mm, para tornillo M10 o 3/8 in.
- Tolerancia de doblez: 90° ±0.5°.
- Acabado: granallado y pintura electrostática negra mate (60–80 µm).
- Carga de trabajo recomendada: 250 kg por escuadra en cortante.

Se vende por pieza con pedido mínimo de 10. Para otros tamaños, espesores o galvanizado por inmersión en caliente, solicite una cotización.`,
  },
  {
    sku: "FOR-SOP-210",
    slug: "soporte-l-motor-chumacera-galvanizado",
    name: "Soporte en L para motor o chumacera, acero galvanizado",
    category: "Soportes y escuadras",
    unit: "pieza",
    stock: 85,
    minOrder: 4,
    grossCentavos: 34_900,
    shortDescription: "Soporte de 3/8 in con ranuras de ajuste para alinear motores, chumaceras y reductores pequeños en bastidores de perfil.",
    description: `Soporte en L de acero A36 de 9.5 mm (3/8 in), galvanizado por inmersión en caliente según ASTM A123, para montar y tensar motores de hasta 5 HP o chumaceras de pared.

## Especificaciones
- Base: 210 × 120 mm con 4 ranuras de 13 × 40 mm para ajuste de tensión.
- Cara vertical: 150 mm, barrenado para chumacera UCP205/UCP206 o motor NEMA 56C.
- Escuadrado: ±0.3 mm entre caras maquinadas.
- Recubrimiento: zinc de 85 µm promedio.

Se entrega con rebabas eliminadas y barrenos avellanados. Pedido mínimo: 4 piezas.`,
  },
  {
    sku: "FOR-BRD-150",
    slug: "brida-slip-on-acero-2-in-clase-150",
    name: "Brida slip-on de acero al carbón 2 in clase 150, maquinada",
    category: "Bridas maquinadas",
    unit: "pieza",
    stock: 36,
    minOrder: 2,
    grossCentavos: 129_000,
    shortDescription: "Brida deslizable ASME B16.5 de acero A105, cara realzada con acabado espiral fonográfico, lista para soldar.",
    description: `Brida slip-on de 2 in clase 150 maquinada en torno CNC a partir de forja de acero ASTM A105, según dimensiones de ASME B16.5.

## Especificaciones
- Diámetro exterior: 152.4 mm; círculo de barrenos: 120.7 mm.
- Barrenos: 4 × Ø 19 mm.
- Cara realzada de 1.6 mm con acabado espiral de 125–250 µin Ra.
- Espesor mínimo: 17.5 mm.
- Marcado con número de colada para trazabilidad; certificado de material disponible.

Acabado: aceite anticorrosivo. Para bridas ciegas, de cuello soldable o de otros diámetros, consulte el catálogo o solicite una cotización.`,
  },
  {
    sku: "FOR-BRD-304",
    slug: "brida-ciega-inoxidable-304-3-in",
    name: "Brida ciega de acero inoxidable 304, 3 in clase 150",
    category: "Bridas maquinadas",
    unit: "pieza",
    stock: 7,
    minOrder: 1,
    grossCentavos: 289_000,
    shortDescription: "Brida ciega en inoxidable AISI 304 para líneas de proceso sanitario y químico, cara realzada maquinada.",
    description: `Brida ciega de 3 in clase 150 maquinada de barra de acero inoxidable AISI 304 (ASTM A182 F304), para cerrar líneas, tanques y equipos de proceso en las industrias de alimentos, química y farmacéutica.

## Especificaciones
- Diámetro exterior: 190.5 mm; círculo de barrenos: 152.4 mm.
- Barrenos: 4 × Ø 19 mm.
- Espesor: 23.9 mm.
- Cara realzada con acabado de 125 µin Ra; caras pasivadas.
- Certificado de material 3.1 incluido.

Existencia limitada; el pedido se surte por orden de pago.`,
  },
  {
    sku: "FOR-BUJ-660",
    slug: "bujes-bronce-sae-660-1-in-juego-4",
    name: "Bujes de bronce SAE 660, 1 × 1-1/4 × 1 in (juego de 4)",
    category: "Bujes y cojinetes",
    unit: "juego",
    stock: 150,
    minOrder: 1,
    grossCentavos: 46_800,
    shortDescription: "Bujes lisos de bronce al plomo SAE 660 torneados y rectificados, para ejes de 1 in en transportadores y maquinaria agrícola.",
    description: `Juego de 4 bujes lisos torneados de barra de bronce SAE 660 (CDA 932), el bronce de uso general para cojinetes con carga media y lubricación por grasa.

## Especificaciones
- Diámetro interior: 25.40 mm (+0.05 / +0.08) para eje de 1 in.
- Diámetro exterior: 31.75 mm (+0.05 / +0.08) para ajuste a presión.
- Largo: 25.4 mm.
- Chaflán de 0.8 × 45° en ambos extremos; ranura de engrase helicoidal.
- Dureza: 60–65 HB.

Se vende por juego de 4 piezas. Fabricamos otras medidas sobre plano.`,
  },
  {
    sku: "FOR-BUJ-841",
    slug: "buje-bridado-bronce-sinterizado-20-mm",
    name: "Buje bridado de bronce sinterizado autolubricado, 20 mm",
    category: "Bujes y cojinetes",
    unit: "pieza",
    stock: 0,
    minOrder: 10,
    grossCentavos: 6_800,
    shortDescription: "Buje con pestaña de bronce sinterizado impregnado en aceite, sin mantenimiento, para ejes de 20 mm.",
    description: `Buje bridado de bronce sinterizado SAE 841 impregnado con aceite (18–25 % de porosidad), para articulaciones y ejes de baja velocidad donde no se puede engrasar.

## Especificaciones
- Diámetro interior: 20 mm (F7); exterior: 26 mm (s7).
- Pestaña: Ø 32 × 3 mm; largo total: 20 mm.
- Velocidad máxima: 6 m/s; presión máxima: 10 MPa.
- Temperatura de trabajo: −10 a 90 °C.

**Sobre pedido:** se fabrica en lotes; entrega en 10 a 12 días hábiles a partir del pago.`,
  },
  {
    sku: "FOR-GAB-432",
    slug: "gabinete-lamina-400x300x200-ip54",
    name: "Gabinete de lámina rolada en frío 400 × 300 × 200 mm, IP54",
    category: "Gabinetes de lámina",
    unit: "pieza",
    stock: 18,
    minOrder: 1,
    grossCentavos: 245_000,
    shortDescription: "Gabinete de pared calibre 16 con puerta embisagrada, empaque de poliuretano y placa de montaje galvanizada.",
    description: `Gabinete para control eléctrico fabricado en lámina rolada en frío calibre 16 (1.5 mm), cortado con láser, doblado en CNC y soldado con MIG en esquinas.

## Especificaciones
- Medidas exteriores: 400 (alto) × 300 (ancho) × 200 (fondo) mm.
- Grado de protección: IP54 con empaque de poliuretano espumado.
- Puerta con bisagras ocultas y chapa de cuarto de vuelta.
- Placa de montaje interior galvanizada calibre 14.
- Acabado: fosfatizado y pintura electrostática RAL 7035, 70 µm.

Incluye 4 soportes para fijación a muro. Podemos perforar y rotular la lámina según su diagrama.`,
  },
  {
    sku: "FOR-PLA-061",
    slug: "placa-montaje-aluminio-6061-300x200",
    name: "Placa de montaje de aluminio 6061-T6, 300 × 200 × 6.35 mm",
    category: "Placas de montaje",
    unit: "pieza",
    stock: 60,
    minOrder: 1,
    grossCentavos: 68_500,
    shortDescription: "Placa maquinada y barrenada en retícula de 25 mm con cuerda M6, para fijar sensores, actuadores y componentes de automatización.",
    description: `Placa de montaje fresada en CNC de placa de aluminio 6061-T6 de 1/4 in, con retícula de barrenos roscados para armar dispositivos de sujeción y estaciones de automatización sin maquinado adicional.

## Especificaciones
- Medidas: 300 × 200 × 6.35 mm; planitud 0.1 mm.
- Retícula: barrenos M6 a cada 25 mm (77 barrenos), con 4 barrenos de fijación Ø 6.6 mm avellanados en las esquinas.
- Cantos fresados y chaflanados a 0.5 mm.
- Acabado: anodizado natural tipo II, 10–15 µm.

Tolerancia general ISO 2768-m.`,
  },
  {
    sku: "FOR-TOR-M06",
    slug: "kit-tornilleria-inoxidable-m6-200-piezas",
    name: "Kit de tornillería inoxidable A2-70 M6 (200 piezas)",
    category: "Tornillería",
    unit: "kit",
    stock: 120,
    minOrder: 1,
    grossCentavos: 53_800,
    shortDescription: "Tornillos Allen cabeza cilíndrica, tuercas, rondanas planas y de presión en acero inoxidable 304, en caja organizadora.",
    description: `Kit de tornillería de acero inoxidable A2-70 (AISI 304) para armado de equipos y mantenimiento, en caja organizadora con divisiones etiquetadas.

## Contenido
- 80 tornillos Allen cabeza cilíndrica DIN 912 M6: 20 de 12, 20 de 16, 20 de 20 y 20 de 25 mm.
- 50 tuercas hexagonales DIN 934 M6.
- 50 rondanas planas DIN 125 M6.
- 20 rondanas de presión DIN 127 M6.

Resistencia a la tracción: 700 MPa. Apta para ambientes húmedos y zonas de lavado.`,
  },
  {
    sku: "FOR-PUR-100",
    slug: "rueda-poliuretano-transportador-100-mm",
    name: "Rueda de poliuretano 85 Shore A para transportador, Ø 100 mm",
    category: "Refacciones de poliuretano",
    unit: "pieza",
    stock: 44,
    minOrder: 2,
    grossCentavos: 39_800,
    shortDescription: "Rueda de poliuretano colado sobre núcleo de aluminio con rodamientos 6204-2RS, para transportadores y carros de planta.",
    description: `Rueda de refacción con banda de poliuretano colado de 85 Shore A sobre núcleo de aluminio, para transportadores de rodillos, guías y carros de transferencia.

## Especificaciones
- Diámetro exterior: 100 mm; ancho: 40 mm.
- Rodamientos: 2 × 6204-2RS para eje de 20 mm.
- Capacidad de carga: 180 kg por rueda.
- Temperatura de trabajo: −20 a 70 °C; resistente a aceites y grasas.

Recubrimos de poliuretano sus propias ruedas y rodillos con la dureza que necesite (60 a 95 Shore A).`,
  },
  {
    sku: "FOR-PUR-T06",
    slug: "solera-desgaste-poliuretano-6x100-mm",
    name: "Solera de desgaste de poliuretano 90 Shore A, 6 × 100 mm",
    category: "Refacciones de poliuretano",
    unit: "metro",
    stock: 75,
    minOrder: 2,
    grossCentavos: 72_000,
    shortDescription: "Solera de poliuretano para raspadores, guías y protecciones contra abrasión en bandas transportadoras y tolvas.",
    description: `Solera de poliuretano de 90 Shore A, resistente a la abrasión y al impacto, para fabricar raspadores de banda, guías laterales y forros de desgaste en minería, agregados y manejo de granos.

## Especificaciones
- Sección: 6 × 100 mm; se vende por metro lineal, cortado a la medida.
- Resistencia a la tensión: 40 MPa; elongación: 450 %.
- Pérdida por abrasión (DIN 53516): 35 mm³.
- Temperatura de trabajo: −30 a 80 °C.

Pedido mínimo: 2 m. Cortamos y barrenamos sobre plano.`,
  },
  {
    sku: "FOR-IMP-018",
    slug: "carcasa-impresa-3d-sensor-m18",
    name: "Carcasa impresa en 3D para sensor inductivo M18, PETG",
    category: "Impresión 3D",
    unit: "pieza",
    stock: 52,
    minOrder: 5,
    grossCentavos: 14_500,
    shortDescription: "Soporte-carcasa de PETG impreso en FDM que protege y orienta sensores de proximidad M18 en líneas de ensamble.",
    description: `Carcasa funcional impresa en FDM con PETG negro para sensores inductivos o capacitivos de cuerpo M18, con ranura de ajuste de ±15 mm y protección contra golpes laterales.

## Especificaciones
- Material: PETG, relleno giroide al 40 %, 4 perímetros.
- Altura de capa: 0.2 mm; tolerancia ±0.2 mm.
- Montaje: 2 barrenos Ø 6.5 mm para tornillo M6; rosca del sensor asegurada por sus dos tuercas.
- Temperatura de trabajo: hasta 70 °C.

Podemos imprimir la misma carcasa en nylon con fibra de carbono o en SLS para ambientes más exigentes.`,
  },
  {
    sku: "FOR-GUA-640",
    slug: "guarda-policarbonato-6-mm-500x400",
    name: "Guarda de policarbonato transparente 6 mm, 500 × 400 mm",
    category: "Guardas de policarbonato",
    unit: "pieza",
    stock: 9,
    minOrder: 1,
    grossCentavos: 115_000,
    shortDescription: "Panel de policarbonato para guardas de máquina, cortado en CNC con barrenos para perfil de aluminio de 30 mm.",
    description: `Panel de guarda de policarbonato transparente de 6 mm, 250 veces más resistente al impacto que el vidrio, para cerrar celdas robotizadas, transportadores y puntos de atrapamiento.

## Especificaciones
- Medidas: 500 × 400 mm; espesor: 6 mm.
- Cantos fresados y pulidos; 8 barrenos Ø 6.5 mm a 15 mm del borde para perfil de 30 mm.
- Transmisión de luz: 88 %; uso en interiores (sin protección UV).
- Con película protectora en ambas caras.

Cortamos guardas a la medida y doblamos en frío hasta 6 mm.`,
  },
];
