import { logger } from "~/lib/logger.server";

// Reactions across features without features importing each other. The feature where something
// happens emits a named event; the features that care subscribe once at start (app/hooks.server.ts,
// the one place that knows every feature). Arrows keep pointing down: emitter and subscribers
// depend on this service, never on each other.

export interface DomainEvents {
  /** An account proved it owns an email (confirmation link, or a provider that vouches for it). */
  "cuenta.correo-confirmado": { userId: string; email: string };
}

export type DomainEventName = keyof DomainEvents;
type Handler<Name extends DomainEventName> = (payload: DomainEvents[Name]) => Promise<void> | void;

const handlers = new Map<DomainEventName, Map<string, Handler<DomainEventName>>>();

/**
 * Subscribes `handler` under a name that says who reacts ("pedidos.vincular"); subscribing the same
 * name again replaces it, so registering at start is idempotent. Returns how to unsubscribe.
 */
export function subscribe<Name extends DomainEventName>(event: Name, name: string, handler: Handler<Name>): () => void {
  const forEvent = handlers.get(event) ?? new Map();
  forEvent.set(name, handler as Handler<DomainEventName>);
  handlers.set(event, forEvent);
  return () => {
    if (handlers.get(event)?.get(name) === handler) handlers.get(event)?.delete(name);
  };
}

/**
 * Runs every subscriber in the order they subscribed, one after the other. A failing subscriber is
 * logged and does not stop the others; the emitter is never failed by a reaction.
 */
export async function emit<Name extends DomainEventName>(event: Name, payload: DomainEvents[Name]): Promise<void> {
  for (const [name, handler] of handlers.get(event) ?? []) {
    try {
      await handler(payload);
    } catch (error) {
      logger.error({ err: error, event, subscriber: name }, "a subscriber to a domain event failed");
    }
  }
}

/** Who listens to an event, by name (for tests and the start-up log). */
export function subscribers(event: DomainEventName): string[] {
  return [...(handlers.get(event)?.keys() ?? [])];
}
