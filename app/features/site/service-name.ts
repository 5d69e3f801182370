/** A service name inside a sentence ("Cotizar maquinado CNC"): only the first word loses its capital, so acronyms keep theirs. */
export function serviceNameInSentence(name: string): string {
  const [first = "", ...rest] = name.split(" ");
  const word = first === first.toUpperCase() ? first : first.charAt(0).toLowerCase() + first.slice(1);
  return [word, ...rest].join(" ");
}

const COUNT_WORDS = ["", "", "Dos", "Tres", "Cuatro", "Cinco", "Seis", "Siete", "Ocho", "Nueve", "Diez", "Once", "Doce"];

/** The lead of /servicios, counting the published services in words («Ocho servicios que se combinan…»). */
export function servicesLead(count: number): string {
  const how = "diseñamos, validamos, fabricamos y ensamblamos con el mismo equipo de ingeniería.";
  const word = COUNT_WORDS[count];
  if (word) return `${word} servicios que se combinan según su proyecto: ${how}`;
  return count > 1 ? `Servicios que se combinan según su proyecto: ${how}` : `Del diseño a la pieza terminada: ${how}`;
}
