import type { LegalPage } from "./types";

// Markdown seeded into `pages` on an empty database. Business facts (name, RFC, address, email,
// hours, payment terms) are names between braces, "{razon_social}", which the page replaces with the
// published Ajustes when it renders (docs/decisions/0087); quotations use « » like the rest of the site.

const avisoDePrivacidad = `## Identidad y domicilio del responsable

{razon_social} (en adelante, «Forja»), con RFC {rfc} y domicilio en {domicilio}, es responsable del tratamiento de sus datos personales conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares (LFPDPPP) y demás disposiciones aplicables.

Para cualquier asunto relacionado con este aviso, puede escribirnos a {correo}.

## Datos personales que recabamos

Recabamos sus datos personales cuando solicita una cotización, crea una cuenta, realiza un pedido, nos contacta por correo, teléfono o WhatsApp, o visita nuestra planta. Según el caso, tratamos las siguientes categorías de datos:

- **Datos de identificación:** nombre completo, puesto y empresa u organización a la que representa.
- **Datos de contacto:** correo electrónico, teléfono fijo o móvil, y domicilio de entrega.
- **Datos fiscales:** RFC, razón social, régimen fiscal, código postal del domicilio fiscal y uso de CFDI.
- **Datos de pago:** banco emisor y referencia de las transferencias SPEI que usted realice. No recabamos ni almacenamos números de tarjeta.
- **Archivos técnicos del proyecto:** modelos 3D, planos, dibujos, fotografías, especificaciones y cualquier otra información técnica que usted nos envíe para cotizar o fabricar.

No recabamos datos personales sensibles. Le pedimos no incluir este tipo de datos en los archivos ni en los mensajes que nos envíe.

## Finalidades primarias

Sus datos personales se tratan para las siguientes finalidades, necesarias para la relación comercial que usted solicita:

1. Elaborar, enviar y dar seguimiento a cotizaciones.
2. Revisar la viabilidad técnica de su proyecto, fabricar sus piezas y prestar los servicios contratados.
3. Procesar pedidos, pagos y envíos, y coordinar la recolección en planta.
4. Emitir comprobantes fiscales digitales (CFDI) y cumplir obligaciones fiscales y contables.
5. Atender dudas, aclaraciones, reclamaciones de garantía y solicitudes de servicio.
6. Administrar su cuenta de usuario en nuestro sitio y mantener el historial de sus cotizaciones y pedidos.
7. Cumplir obligaciones legales y requerimientos de autoridades competentes.

## Finalidades secundarias

Adicionalmente, podemos usar sus datos de identificación y contacto para:

1. Enviarle información sobre nuevos servicios, capacidades de planta y contenido técnico.
2. Realizar encuestas de satisfacción y evaluar la calidad de nuestro servicio.
3. Elaborar estadísticas internas sobre el uso del sitio y el tipo de proyectos que recibimos.

Estas finalidades no son necesarias para la relación comercial. Si no desea que sus datos se traten para ellas, envíe un correo a {correo} con el asunto «Finalidades secundarias». Su negativa no será motivo para negarle nuestros servicios.

## Archivos técnicos y confidencialidad

Los archivos técnicos que usted nos envía se usan exclusivamente para cotizar y fabricar su proyecto. Se almacenan con acceso restringido al personal asignado y no se comparten con terceros, salvo lo indicado en la sección de transferencias. Si lo solicita, firmamos un acuerdo de confidencialidad antes de revisar sus archivos.

## Transferencias de datos

Podemos transferir o remitir sus datos personales, en los casos en que la LFPDPPP no exige su consentimiento, a:

- Empresas de paquetería y transporte, para entregar sus pedidos (nombre, teléfono y domicilio de entrega).
- Proveedores de procesos secundarios, como tratamiento térmico, recubrimientos o pintura, únicamente en la parte de los archivos técnicos necesaria para su trabajo.
- Proveedores de servicios de facturación electrónica y el Servicio de Administración Tributaria (SAT), para emitir y timbrar sus CFDI.
- Proveedores de alojamiento, correo y sistemas, que actúan como encargados bajo nuestras instrucciones.
- Autoridades competentes, cuando exista un requerimiento legal.

No vendemos ni cedemos sus datos personales a terceros con fines comerciales.

## Derechos ARCO

Usted tiene derecho a conocer qué datos personales tenemos y para qué los usamos (**Acceso**), a solicitar su corrección cuando sean inexactos o estén incompletos (**Rectificación**), a pedir que los eliminemos de nuestros registros cuando considere que no se requieren para las finalidades señaladas (**Cancelación**) y a oponerse a su uso para fines específicos (**Oposición**).

## Cómo ejercer sus derechos ARCO

Envíe su solicitud al correo {correo} con el asunto «Derechos ARCO». La solicitud debe contener:

1. Su nombre completo y un correo electrónico para recibir la respuesta.
2. Una copia de su identificación oficial o, si actúa por otra persona, los documentos que acrediten la representación.
3. La descripción clara de los datos y del derecho que desea ejercer.
4. Cualquier documento que facilite la localización de sus datos, como su número de cotización o de pedido.
5. En caso de rectificación, las correcciones que solicita y los documentos que las respaldan.

Le responderemos en un plazo máximo de 20 días hábiles contados desde la fecha en que recibamos su solicitud completa. Si la solicitud resulta procedente, la haremos efectiva dentro de los 15 días hábiles siguientes a la respuesta. Estos plazos podrán ampliarse una sola vez por un periodo igual cuando las circunstancias lo justifiquen, lo cual le informaremos.

Algunos datos no podrán cancelarse mientras exista una obligación legal de conservarlos, como la información fiscal asociada a los CFDI emitidos.

## Revocación del consentimiento

Usted puede revocar en cualquier momento el consentimiento que nos otorgó para el tratamiento de sus datos personales, enviando su solicitud a {correo} con el asunto «Revocación de consentimiento» y los mismos requisitos indicados para los derechos ARCO. Le responderemos en un plazo máximo de 20 días hábiles.

La revocación no tiene efectos retroactivos y, en algunos casos, no podremos atenderla de inmediato por obligaciones legales vigentes o porque implicaría dar por terminada la relación comercial en curso.

## Limitación del uso y divulgación

Si desea dejar de recibir comunicaciones comerciales, puede solicitarlo en cualquier momento a {correo} o mediante el enlace para darse de baja incluido en cada correo informativo.

## Uso de cookies

Nuestro sitio usa cookies estrictamente necesarias para su funcionamiento:

- **Cookie de sesión:** mantiene su sesión iniciada mientras navega en el portal de clientes.
- **Cookie de carrito:** conserva los productos y solicitudes que agrega antes de enviar su cotización o pedido.

Estas cookies no recaban datos para publicidad ni se comparten con terceros. Puede eliminarlas o bloquearlas desde la configuración de su navegador; si lo hace, es posible que no pueda iniciar sesión ni conservar su carrito.

## Cambios al aviso de privacidad

Podemos modificar este aviso por cambios en la ley, en nuestros servicios o en nuestras prácticas de privacidad. La versión vigente estará siempre publicada en esta página, con la fecha de su última actualización al inicio. Si el cambio afecta las finalidades del tratamiento, se lo comunicaremos por correo electrónico.

## Autoridad

Si considera que su derecho a la protección de datos personales ha sido vulnerado, puede acudir ante la autoridad garante en materia de protección de datos personales en posesión de particulares, actualmente la Secretaría Anticorrupción y Buen Gobierno.
`;

const terminos = `## Aceptación

Estos términos y condiciones regulan las cotizaciones, pedidos y servicios de {razon_social} (en adelante, «Forja»), con RFC {rfc} y domicilio en {domicilio}. Al solicitar una cotización, confirmar un pedido o usar nuestro sitio, usted (en adelante, «el Cliente») acepta estos términos. Cualquier condición distinta debe pactarse por escrito en la cotización o en un contrato firmado por ambas partes.

## Cotizaciones

Cada cotización se elabora con la información, los archivos y las cantidades que el Cliente proporciona. Indica precio, plazo de entrega, material, proceso, tolerancias aplicables, condiciones de pago y costo de envío.

Las cotizaciones tienen una vigencia de 30 días naturales a partir de su fecha de emisión. Después de ese plazo, el precio y el plazo pueden cambiar por variaciones en el costo del material o en la carga de planta.

Si el Cliente modifica archivos, cantidades, materiales o especificaciones, la cotización deja de ser válida y se emite una nueva.

## Pedidos

Un pedido queda confirmado cuando el Cliente acepta la cotización por escrito, por correo electrónico o a través del portal, y se recibe el pago o el anticipo correspondiente.

Los archivos y planos adjuntos a la cotización aceptada son la referencia de fabricación. Los cambios solicitados después de la confirmación se cotizan por separado y pueden modificar el plazo de entrega. El trabajo o el material ya consumidos en la versión anterior se cobran conforme a lo avanzado.

El Cliente puede cancelar un pedido antes de que inicie la fabricación sin costo. Una vez iniciada, Forja cobrará el material adquirido y el trabajo realizado hasta la fecha de cancelación.

## Precios

Todos los precios se expresan en pesos mexicanos (MXN) e incluyen el Impuesto al Valor Agregado (IVA). Los costos de envío, urgencia, procesos secundarios y documentación especial se indican por separado en la cotización.

Los precios de los productos del catálogo publicados en el sitio pueden cambiar sin previo aviso; el precio aplicable es el vigente al momento de confirmar el pedido.

## Pagos

Los pagos se realizan mediante transferencia electrónica por SPEI a la cuenta que se indica al aceptar la cotización (en su página del portal, en el correo que confirma la aceptación y en el PDF) o en la confirmación del pedido del catálogo. Los pedidos del catálogo que se recogen en planta también pueden pagarse al recogerlos. El Cliente debe enviar el comprobante a {correo} con su número de cotización o pedido.

- {pago_al_confirmar}
- {pago_series}
- Crédito: disponible para clientes recurrentes, sujeto a evaluación y a las condiciones pactadas por escrito.

Forja no inicia la fabricación hasta recibir el pago o anticipo correspondiente y puede retener la entrega de pedidos con saldos vencidos.

## Facturación

Forja emite un Comprobante Fiscal Digital por Internet (CFDI) versión 4.0 por cada pedido. El Cliente debe proporcionar su RFC, razón social, régimen fiscal, código postal del domicilio fiscal y uso de CFDI exactamente como aparecen en su Constancia de Situación Fiscal.

Las facturas se emiten en el mes en que se recibe el pago. Las solicitudes de corrección o refacturación deben hacerse dentro del mismo mes de emisión; después de ese plazo quedan sujetas a las disposiciones fiscales vigentes.

## Plazos de entrega

Los plazos se expresan en días hábiles (lunes a viernes, sin días festivos oficiales) y empiezan a contar a partir de la confirmación del pedido, la recepción del pago o anticipo y la liberación de archivos definitivos.

Forja informará al Cliente cualquier retraso en cuanto lo conozca, junto con la nueva fecha estimada. Los retrasos causados por cambios del Cliente, falta de información, materiales suministrados por el Cliente o causas de fuerza mayor no generan responsabilidad para Forja.

## Envíos y recolección

Los pedidos se envían por paquetería nacional o flete dedicado al domicilio indicado por el Cliente, o se recogen en planta {horario_en_frase}. El riesgo de pérdida o daño pasa al Cliente al entregar el pedido a la paquetería o al momento de la recolección en planta.

Forja embala las piezas para protegerlas durante el transporte. Si un pedido llega dañado, el Cliente debe anotarlo en la guía de entrega y avisar a {correo} dentro de las 48 horas siguientes, con fotografías del empaque y de las piezas, para gestionar la reclamación con la paquetería.

## Garantía de fabricación

Forja garantiza que las piezas se fabrican conforme al plano, modelo y especificaciones aprobados en la cotización. Cuando el Cliente no entrega plano con tolerancias, se aplican las tolerancias generales ISO 2768-m.

El Cliente cuenta con 10 días hábiles a partir de la entrega para reportar piezas no conformes, con evidencia como fotografías o reporte de inspección. Si Forja confirma la no conformidad, repondrá o retrabajará las piezas sin costo o, si no es posible, reembolsará el importe pagado por ellas.

La garantía no cubre:

- Errores en los archivos, planos o especificaciones proporcionados por el Cliente.
- La idoneidad del diseño del Cliente para su aplicación final.
- Daños causados por uso indebido, montaje incorrecto, modificaciones o condiciones de operación fuera de lo especificado.
- El desgaste normal de las piezas.

## Propiedad intelectual

Los diseños, modelos, planos y archivos que el Cliente entrega a Forja son propiedad del Cliente. Forja los usa solo para cotizar y fabricar sus pedidos y no los reproduce ni fabrica para terceros.

Cuando Forja desarrolla un diseño por encargo del Cliente, los derechos patrimoniales sobre ese diseño se transfieren al Cliente una vez pagado en su totalidad, salvo pacto distinto en la cotización. Forja conserva la propiedad de sus métodos, programas CNC, procesos y herramentales propios, salvo que el Cliente los haya pagado expresamente.

Los moldes y herramentales pagados por el Cliente son de su propiedad. Forja los resguarda en su planta mientras exista una relación comercial activa y los entrega al Cliente cuando lo solicite por escrito.

El Cliente garantiza que tiene los derechos sobre los diseños que entrega y libera a Forja de cualquier reclamación de terceros por infracción de derechos de propiedad intelectual derivada de dichos diseños.

## Confidencialidad

Forja trata como confidencial toda la información técnica y comercial que el Cliente le entrega. Solo la comparte con su personal y con proveedores de procesos secundarios en la medida necesaria para fabricar el pedido. A solicitud del Cliente, Forja firma un acuerdo de confidencialidad al momento de la cotización; en caso de conflicto, ese acuerdo prevalece sobre esta sección.

## Limitación de responsabilidad

La responsabilidad total de Forja por cualquier reclamación relacionada con un pedido se limita al importe pagado por el Cliente por las piezas o servicios que la originan.

Forja no es responsable por daños indirectos o consecuenciales, como pérdida de producción, paros de línea, lucro cesante o costos de retiro de producto, salvo en los casos en que la ley no permita esta limitación.

## Legislación aplicable y jurisdicción

Estos términos se rigen por las leyes de los Estados Unidos Mexicanos. Para su interpretación y cumplimiento, las partes se someten a la jurisdicción de los tribunales competentes de la ciudad de Querétaro, Querétaro, y renuncian a cualquier otro fuero que pudiera corresponderles por razón de su domicilio presente o futuro.

## Cambios a estos términos

Forja puede actualizar estos términos en cualquier momento. La versión vigente se publica en esta página y aplica a las cotizaciones emitidas a partir de su publicación, cuya fecha aparece al inicio de esta página.
`;

export const legalPages: LegalPage[] = [
  {
    slug: "aviso-de-privacidad",
    title: "Aviso de privacidad",
    description: "Cómo Forja trata sus datos personales y cómo ejercer sus derechos ARCO.",
    body: avisoDePrivacidad,
  },
  {
    slug: "terminos",
    title: "Términos y condiciones",
    description: "Condiciones de cotizaciones, pedidos, pagos, facturación y entregas de Forja.",
    body: terminos,
  },
];
