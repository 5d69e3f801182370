// The five-field cron expressions of the scheduled jobs (minute hour day-of-month month
// day-of-week), read as PocketBase's scheduler reads them (tools/cron): `*`, numbers, ranges
// `a-b`, steps `*/n` and `a-b/n`, lists `a,b`, and the macros @yearly, @annually, @monthly,
// @weekly, @daily, @midnight and @hourly. A minute is due when every field matches it (in UTC).

const MACROS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const RANGES: readonly (readonly [number, number])[] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 6],
];

export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
}

function parseNumber(text: string, min: number, max: number, expression: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`Invalid cron expression ${JSON.stringify(expression)}: ${JSON.stringify(text)} is not a number`);
  const value = Number(text);
  if (value < min || value > max) throw new Error(`Invalid cron expression ${JSON.stringify(expression)}: ${value} is outside ${min}-${max}`);
  return value;
}

function parseField(field: string, [min, max]: readonly [number, number], expression: string): Set<number> {
  const values = new Set<number>();
  for (const part of field.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : parseNumber(stepText, 1, max - min + 1, expression);
    let from = min;
    let to = max;
    if (range !== "*") {
      const [start = "", end] = range.split("-");
      from = parseNumber(start, min, max, expression);
      to = end === undefined ? (stepText === undefined ? from : max) : parseNumber(end, min, max, expression);
      if (to < from) throw new Error(`Invalid cron expression ${JSON.stringify(expression)}: range ${range} runs backwards`);
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

/** Parses an expression; throws an Error naming what is wrong. */
export function parseCronExpression(expression: string): CronSchedule {
  const fields = (MACROS[expression.trim()] ?? expression).trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`Invalid cron expression ${JSON.stringify(expression)}: expected 5 fields`);
  const [minutes, hours, days, months, weekdays] = fields.map((field, index) => parseField(field, RANGES[index]!, expression));
  return { minutes: minutes!, hours: hours!, days: days!, months: months!, weekdays: weekdays! };
}

/** Whether the minute that holds `date` is due (UTC). */
export function isDue(schedule: CronSchedule, date: Date): boolean {
  return (
    schedule.minutes.has(date.getUTCMinutes()) &&
    schedule.hours.has(date.getUTCHours()) &&
    schedule.days.has(date.getUTCDate()) &&
    schedule.months.has(date.getUTCMonth() + 1) &&
    schedule.weekdays.has(date.getUTCDay())
  );
}

/** The start of the minute that holds `date`: a job's scheduled slot. */
export function minuteSlot(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000);
}
