import { context as otelContext, propagation, type TextMapGetter } from "@opentelemetry/api";

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => {
    const keys: string[] = [];
    headers.forEach((_value, key) => keys.push(key));
    return keys;
  },
};

/**
 * Runs `start` (a turn's `session.send`) in the trace the request carries (`traceparent`, through the registered
 * propagator), so the turn's span continues the caller's trace. A request without one starts as before. Takes
 * effect with a context manager registered (`NodeTracerProvider.register()`, `NodeSDK`), like all active contexts.
 */
export function inRequestTrace<T>(request: Request, start: () => T): T {
  if (!request.headers.has("traceparent")) return start();
  return otelContext.with(propagation.extract(otelContext.active(), request.headers, headerGetter), start);
}
