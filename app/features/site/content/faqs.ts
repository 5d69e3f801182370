import type { FaqGroup } from "./types";

// Business facts (hours, address, email, payment terms) are written as names between braces, "{correo}",
// which the page replaces with the published Ajustes when it renders (services/site-config/fact-tokens.ts,
// docs/decisions/0087): never as values here.

export const faqGroups: FaqGroup[] = [
  {
    title: "Plazos de entrega",
    items: [
      {
        question: "¿Cuánto tardan en enviarme una cotización?",
        answer: [
          "Respondemos en 1 día hábil para piezas con archivo 3D o plano completo. Proyectos de diseño, moldes o ensamble por contrato pueden requerir de 2 a 3 días hábiles, porque revisamos el alcance con nuestro equipo de ingeniería.",
          "Si falta información para cotizar, se lo pedimos el mismo día en que recibimos su solicitud.",
        ],
      },
      {
        question: "¿Cuáles son los plazos típicos de fabricación?",
        answer: [
          "Prototipos impresos en 3D: 2 a 5 días hábiles. Piezas maquinadas en CNC: 5 a 10 días hábiles. Piezas de lámina: 3 a 7 días hábiles. Moldes piloto: 15 a 25 días hábiles. Primer lote de ensamble por contrato: 15 a 30 días hábiles.",
          "El plazo exacto de su pedido aparece en la cotización y se cuenta a partir de la confirmación del pedido, el pago o anticipo correspondiente y la liberación de archivos definitivos.",
        ],
      },
      {
        question: "¿Pueden fabricar con urgencia?",
        answer: [
          "Sí. Para piezas sencillas de maquinado, lámina o impresión 3D podemos programar entregas en 24 a 72 horas, según la carga de planta. El servicio urgente tiene un cargo adicional que le indicamos en la cotización antes de que usted confirme.",
        ],
      },
      {
        question: "¿Qué pasa si cambio el diseño después de confirmar el pedido?",
        answer: [
          "Detenemos la fabricación de las piezas afectadas, revisamos el cambio y le enviamos una cotización actualizada con el nuevo plazo. El material o el trabajo ya realizados sobre la versión anterior se cobran conforme a lo avanzado.",
        ],
      },
    ],
  },
  {
    title: "Archivos y formatos",
    items: [
      {
        question: "¿Qué formatos de archivo aceptan?",
        answer: [
          "Modelos 3D: STEP/STP, IGES/IGS, STL, 3MF, OBJ y SLDPRT. Dibujos 2D: DXF y DWG. Planos y referencias: PDF, PNG y JPG.",
          "Para maquinado y lámina preferimos STEP, porque conserva la geometría exacta. STL, 3MF y OBJ son mallas y funcionan bien para impresión 3D, pero no para cotas de precisión.",
        ],
      },
      {
        question: "¿Cuántos archivos puedo subir y de qué tamaño?",
        answer: [
          "Hasta 10 archivos por solicitud, de hasta 50 MB cada uno y 200 MB en total. Si su proyecto es más grande, comprima los archivos o envíe una primera solicitud y le indicamos cómo compartir el resto.",
        ],
      },
      {
        question: "¿Necesito un plano además del modelo 3D?",
        answer: [
          "No siempre. Con el modelo 3D podemos cotizar y fabricar con tolerancias generales ISO 2768-m. Si la pieza tiene tolerancias más estrictas, roscas, acabados superficiales o tratamientos, adjunte un plano en PDF que los indique.",
        ],
      },
      {
        question: "No tengo archivos, solo una pieza física o un croquis. ¿Pueden ayudarme?",
        answer: [
          "Sí. Con una pieza física hacemos ingeniería inversa y escaneo 3D para generar el modelo y el plano. Con un croquis acotado o fotografías con medidas, nuestro equipo de ingeniería modela la pieza. Ambos servicios se cotizan por separado.",
        ],
      },
    ],
  },
  {
    title: "Confidencialidad",
    items: [
      {
        question: "¿Firman acuerdo de confidencialidad (NDA)?",
        answer: [
          "Sí. Puede solicitarlo al pedir su cotización y se lo enviamos firmado antes de revisar sus archivos. Si su empresa tiene su propio formato, lo revisamos y firmamos cuando sus condiciones son razonables.",
        ],
      },
      {
        question: "¿Quién tiene acceso a mis archivos?",
        answer: [
          "Solo el personal de ventas, ingeniería y producción asignado a su proyecto. Los archivos se guardan en servidores con acceso restringido por usuario y no se comparten con terceros, salvo con proveedores de procesos secundarios (tratamiento térmico, anodizado, pintura) y solo en la parte que requieren para su trabajo.",
        ],
      },
      {
        question: "¿De quién es el diseño de las piezas que fabrican?",
        answer: [
          "Los diseños que usted nos entrega son suyos y solo los usamos para cotizar y fabricar su pedido. Cuando desarrollamos un diseño por encargo y usted lo paga, la propiedad intelectual se le transfiere conforme a lo pactado en la cotización.",
        ],
      },
    ],
  },
  {
    title: "Tolerancias y calidad",
    items: [
      {
        question: "¿Qué tolerancias manejan?",
        answer: [
          "Si no se indica otra cosa, fabricamos con tolerancias generales ISO 2768-m. En maquinado CNC trabajamos ±0.05 mm de forma estándar y cotas críticas de hasta ±0.01 mm. En lámina, ±0.1 mm en corte y ±0.5° en doblez. En impresión 3D, de ±0.1 a ±0.3 mm según la tecnología.",
        ],
      },
      {
        question: "¿Cómo solicito tolerancias más estrictas que ISO 2768-m?",
        answer: [
          "Adjunte un plano en PDF con las cotas, tolerancias y GD&T que necesita. Sin plano no podemos garantizar tolerancias más estrictas que las generales, porque el modelo 3D no indica qué cotas son críticas.",
        ],
      },
      {
        question: "¿Cómo verifican la calidad de las piezas?",
        answer: [
          "Inspeccionamos la primera pieza de cada lote y muestras durante la producción. Las cotas críticas se miden en máquina de medición por coordenadas (CMM) en nuestra sala de metrología. Cada entrega incluye certificado de conformidad y, si usted lo solicita, reporte dimensional y certificado de material.",
        ],
      },
      {
        question: "¿Qué pasa si una pieza no cumple con el plano?",
        answer: [
          "Repórtela dentro de los 10 días hábiles siguientes a la entrega con fotografías o su reporte de inspección. Si confirmamos que no cumple con el plano aprobado, la reponemos o la retrabajamos sin costo, con prioridad en planta.",
        ],
      },
    ],
  },
  {
    title: "Pagos y facturación",
    items: [
      {
        question: "¿Los precios incluyen IVA?",
        answer: [
          "Sí. Todos los precios del sitio y de nuestras cotizaciones están en pesos mexicanos (MXN) con IVA incluido. La cotización desglosa el subtotal y el IVA.",
        ],
      },
      {
        question: "¿Qué formas de pago aceptan?",
        answer: [
          "Transferencia electrónica por SPEI. Los pedidos del catálogo que recoge en planta también puede pagarlos al recogerlos.",
          `Los datos bancarios (banco, CLABE, beneficiario y la referencia que debe escribir en el concepto) aparecen en cuanto usted acepta una cotización: en la página de la cotización, en el correo que confirma la aceptación y en el PDF. En los pedidos del catálogo aparecen en la confirmación del pedido. Para confirmar su pago, envíe el comprobante a {correo} con su número de cotización o de pedido.`,
        ],
      },
      {
        question: "¿Piden anticipo?",
        answer: [
          `{regla_de_pago} {credito}`,
        ],
      },
      {
        question: "¿Emiten factura electrónica?",
        answer: [
          "Sí. Emitimos CFDI 4.0 por cada pedido. Necesitamos su RFC, razón social exactamente como aparece en su Constancia de Situación Fiscal, código postal del domicilio fiscal, régimen fiscal y uso de CFDI. La factura se envía por correo en XML y PDF.",
        ],
      },
    ],
  },
  {
    title: "Envíos",
    items: [
      {
        question: "¿Envían a todo México?",
        answer: [
          "Sí. Enviamos por paquetería nacional a cualquier parte de la República. Piezas grandes o pesadas, como gabinetes, máquinas o tarimas completas, se envían por flete dedicado. El costo y el tiempo de tránsito aparecen en la cotización.",
        ],
      },
      {
        question: "¿Puedo recoger mi pedido en planta?",
        answer: [
          `Sí. Puede recoger sin costo en nuestra planta ({domicilio}) {horario_en_frase}. Le avisamos por correo cuando su pedido esté listo; presente su número de pedido y una identificación.`,
        ],
      },
      {
        question: "¿Cómo protegen las piezas durante el envío?",
        answer: [
          "Las piezas maquinadas se protegen con aceite o película anticorrosiva y se empacan por separado. Superficies críticas, acabados pintados y piezas delicadas se embalan con espuma o en caja de madera. Si usted necesita un empaque especial o retornable, indíquelo al cotizar.",
        ],
      },
      {
        question: "¿Qué hago si mi pedido llega dañado?",
        answer: [
          `Anótelo en la guía de la paquetería al recibir, tome fotografías del empaque y de las piezas, y escríbanos a {correo} dentro de las 48 horas siguientes. Nosotros gestionamos la reclamación y reponemos las piezas dañadas.`,
        ],
      },
    ],
  },
];
