// The SAT catalogues a CFDI 4.0 receptor needs (Anexo 20: c_RegimenFiscal and c_UsoCFDI, the codes
// and descriptions as the SAT publishes them) and the 32 federal entities for delivery addresses.
// Shared by the checkout form in the browser and the server's validation.

import type { RfcKind } from "~/lib/rfc";

export interface RegimenFiscal {
  code: string;
  label: string;
  fisica: boolean;
  moral: boolean;
}

/** c_RegimenFiscal, current entries, with whom each applies to (persona física / moral). */
export const REGIMENES_FISCALES: readonly RegimenFiscal[] = [
  { code: "601", label: "General de Ley Personas Morales", fisica: false, moral: true },
  { code: "603", label: "Personas Morales con Fines no Lucrativos", fisica: false, moral: true },
  { code: "605", label: "Sueldos y Salarios e Ingresos Asimilados a Salarios", fisica: true, moral: false },
  { code: "606", label: "Arrendamiento", fisica: true, moral: false },
  { code: "607", label: "Régimen de Enajenación o Adquisición de Bienes", fisica: true, moral: false },
  { code: "608", label: "Demás ingresos", fisica: true, moral: false },
  { code: "610", label: "Residentes en el Extranjero sin Establecimiento Permanente en México", fisica: true, moral: true },
  { code: "611", label: "Ingresos por Dividendos (socios y accionistas)", fisica: true, moral: false },
  { code: "612", label: "Personas Físicas con Actividades Empresariales y Profesionales", fisica: true, moral: false },
  { code: "614", label: "Ingresos por intereses", fisica: true, moral: false },
  { code: "615", label: "Régimen de los ingresos por obtención de premios", fisica: true, moral: false },
  { code: "616", label: "Sin obligaciones fiscales", fisica: true, moral: false },
  { code: "620", label: "Sociedades Cooperativas de Producción que optan por diferir sus ingresos", fisica: false, moral: true },
  { code: "621", label: "Incorporación Fiscal", fisica: true, moral: false },
  { code: "622", label: "Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras", fisica: false, moral: true },
  { code: "623", label: "Opcional para Grupos de Sociedades", fisica: false, moral: true },
  { code: "624", label: "Coordinados", fisica: false, moral: true },
  { code: "625", label: "Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas", fisica: true, moral: false },
  { code: "626", label: "Régimen Simplificado de Confianza", fisica: true, moral: true },
];

export interface UsoCfdi {
  code: string;
  label: string;
  fisica: boolean;
  moral: boolean;
  /** The receptor's régimen fiscal codes this use is valid with (the catalogue's last column). */
  regimenes: readonly string[];
}

const BUSINESS = ["601", "603", "606", "612", "620", "621", "622", "623", "624", "625", "626"] as const;
const PERSONAL = ["605", "606", "607", "608", "611", "612", "614", "615", "625"] as const;
const ANY = ["601", "603", "605", "606", "607", "608", "610", "611", "612", "614", "615", "616", "620", "621", "622", "623", "624", "625", "626"] as const;

/**
 * c_UsoCFDI for an invoice of a sale ("I", ingreso). CP01 (Pagos) and CN01 (Nómina) belong to
 * payment and payroll receipts, never to a purchase, so they are not offered.
 */
export const USOS_CFDI: readonly UsoCfdi[] = [
  { code: "G01", label: "Adquisición de mercancías", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "G02", label: "Devoluciones, descuentos o bonificaciones", fisica: true, moral: true, regimenes: [...BUSINESS, "616"] },
  { code: "G03", label: "Gastos en general", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I01", label: "Construcciones", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I02", label: "Mobiliario y equipo de oficina por inversiones", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I03", label: "Equipo de transporte", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I04", label: "Equipo de cómputo y accesorios", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I05", label: "Dados, troqueles, moldes, matrices y herramental", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I06", label: "Comunicaciones telefónicas", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I07", label: "Comunicaciones satelitales", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "I08", label: "Otra maquinaria y equipo", fisica: true, moral: true, regimenes: BUSINESS },
  { code: "D01", label: "Honorarios médicos, dentales y gastos hospitalarios", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D02", label: "Gastos médicos por incapacidad o discapacidad", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D03", label: "Gastos funerales", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D04", label: "Donativos", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D05", label: "Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D06", label: "Aportaciones voluntarias al SAR", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D07", label: "Primas por seguros de gastos médicos", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D08", label: "Gastos de transportación escolar obligatoria", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D09", label: "Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "D10", label: "Pagos por servicios educativos (colegiaturas)", fisica: true, moral: false, regimenes: PERSONAL },
  { code: "S01", label: "Sin efectos fiscales", fisica: true, moral: true, regimenes: ANY },
];

/** The 32 federal entities (SAT c_Estado codes), in alphabetical order of their names. */
export const ESTADOS: readonly { code: string; name: string }[] = [
  { code: "AGU", name: "Aguascalientes" },
  { code: "BCN", name: "Baja California" },
  { code: "BCS", name: "Baja California Sur" },
  { code: "CAM", name: "Campeche" },
  { code: "CHP", name: "Chiapas" },
  { code: "CHH", name: "Chihuahua" },
  { code: "CMX", name: "Ciudad de México" },
  { code: "COA", name: "Coahuila" },
  { code: "COL", name: "Colima" },
  { code: "DUR", name: "Durango" },
  { code: "MEX", name: "Estado de México" },
  { code: "GUA", name: "Guanajuato" },
  { code: "GRO", name: "Guerrero" },
  { code: "HID", name: "Hidalgo" },
  { code: "JAL", name: "Jalisco" },
  { code: "MIC", name: "Michoacán" },
  { code: "MOR", name: "Morelos" },
  { code: "NAY", name: "Nayarit" },
  { code: "NLE", name: "Nuevo León" },
  { code: "OAX", name: "Oaxaca" },
  { code: "PUE", name: "Puebla" },
  { code: "QUE", name: "Querétaro" },
  { code: "ROO", name: "Quintana Roo" },
  { code: "SLP", name: "San Luis Potosí" },
  { code: "SIN", name: "Sinaloa" },
  { code: "SON", name: "Sonora" },
  { code: "TAB", name: "Tabasco" },
  { code: "TAM", name: "Tamaulipas" },
  { code: "TLA", name: "Tlaxcala" },
  { code: "VER", name: "Veracruz" },
  { code: "YUC", name: "Yucatán" },
  { code: "ZAC", name: "Zacatecas" },
];

export function findRegimen(code: string): RegimenFiscal | undefined {
  return REGIMENES_FISCALES.find((regimen) => regimen.code === code);
}

export function findUsoCfdi(code: string): UsoCfdi | undefined {
  return USOS_CFDI.find((uso) => uso.code === code);
}

export function regimenLabel(code: string): string {
  const regimen = findRegimen(code);
  return regimen ? `${regimen.code} · ${regimen.label}` : code;
}

export function usoCfdiLabel(code: string): string {
  const uso = findUsoCfdi(code);
  return uso ? `${uso.code} · ${uso.label}` : code;
}

export function appliesTo(entry: { fisica: boolean; moral: boolean }, kind: RfcKind): boolean {
  return kind === "moral" ? entry.moral : entry.fisica;
}
