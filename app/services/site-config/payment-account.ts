// Where customers send SPEI transfers, for orders and accepted quotes alike (docs/decisions/0033).
// The account shown is the `ajustes` record's (docs/decisions/0047); the environment below only
// seeds that record on an empty database, with demo defaults so `npm start` works out of the box:
//   SPEI_BANK         bank name shown to the customer            (default "BBVA México")
//   SPEI_CLABE        18-digit CLABE, check digit verified        (default a demo CLABE)
//   SPEI_BENEFICIARY  account holder, as the bank shows it         (default the legal name)
// The CLABE arithmetic below is pure and may run in the browser; getPaymentConfig is for servers.
import { siteConfig } from "./site-config";

export interface PaymentConfig {
  bank: string;
  clabe: string;
  beneficiary: string;
}

/** What a page shows to pay by SPEI: the account, the CLABE grouped for reading, and the reference. */
export interface SpeiDetails extends PaymentConfig {
  clabeDisplay: string;
  reference: string;
}

/** A valid-format demo CLABE (bank 012, plaza 180) with a correct check digit; not a real account. */
export const DEMO_CLABE = "012180001234567899";

const DEFAULTS: PaymentConfig = {
  bank: "BBVA México",
  clabe: DEMO_CLABE,
  beneficiary: siteConfig.legalName,
};

const CLABE_WEIGHTS = [3, 7, 1] as const;

/** The 18th digit of a CLABE from its first 17: weights 3, 7, 1 (each product mod 10), then 10 − sum mod 10. */
export function clabeCheckDigit(first17: string): string {
  let sum = 0;
  for (let index = 0; index < 17; index += 1) sum += (Number(first17[index]) * CLABE_WEIGHTS[index % 3]!) % 10;
  return String((10 - (sum % 10)) % 10);
}

export function isValidClabe(value: string): boolean {
  return /^\d{18}$/.test(value) && clabeCheckDigit(value.slice(0, 17)) === value[17];
}

/** "012 180 00123456789 9": bank, plaza, account and check digit, easier to copy by eye. */
export function formatClabe(clabe: string): string {
  return /^\d{18}$/.test(clabe) ? `${clabe.slice(0, 3)} ${clabe.slice(3, 6)} ${clabe.slice(6, 17)} ${clabe.slice(17)}` : clabe;
}

/** Throws a readable error when SPEI_CLABE is set to something that is not a valid CLABE. */
export function getPaymentConfig(source: Record<string, string | undefined> = process.env): PaymentConfig {
  const clabe = source.SPEI_CLABE?.replace(/\s/g, "") || DEFAULTS.clabe;
  if (!isValidClabe(clabe)) {
    throw new Error(`SPEI_CLABE no es una CLABE válida (18 dígitos con dígito de control correcto): ${source.SPEI_CLABE}`);
  }
  return {
    bank: source.SPEI_BANK?.trim() || DEFAULTS.bank,
    clabe,
    beneficiary: source.SPEI_BENEFICIARY?.trim() || DEFAULTS.beneficiary,
  };
}

/** The account (from the business facts) and the reference the customer writes in the transfer's concept, ready to show. */
export function speiDetails(config: PaymentConfig, reference: string): SpeiDetails {
  return { bank: config.bank, clabe: config.clabe, beneficiary: config.beneficiary, clabeDisplay: formatClabe(config.clabe), reference };
}

/** The account in one line of an email: "Banco: … · CLABE: … · Beneficiario: …". */
export function speiAccountLine(config: PaymentConfig): string {
  return `Banco: ${config.bank} · CLABE: ${formatClabe(config.clabe)} · Beneficiario: ${config.beneficiary}`;
}
