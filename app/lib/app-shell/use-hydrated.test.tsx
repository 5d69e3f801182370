// @vitest-environment jsdom
import { act, Suspense, use } from "react";
import { hydrateRoot, createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useHydrated } from "./use-hydrated";

const renders: boolean[] = [];

function Probe() {
  const hydrated = useHydrated();
  renders.push(hydrated);
  return <span data-hydrated={hydrated ? "true" : "false"}>{hydrated ? "con JavaScript" : "sin JavaScript"}</span>;
}

let container: HTMLDivElement;
let root: Root | undefined;

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container?.remove();
  renders.length = 0;
});

/** Suspends for good once hydrated: what React shows then tells a transition from a synchronous render. */
const never = new Promise<never>(() => {});
function SuspendsWhenHydrated() {
  const hydrated = useHydrated();
  if (hydrated) use(never);
  return <span>sin JavaScript</span>;
}

describe("useHydrated", () => {
  it("turns true in a transition: a component that suspends on it keeps its server content instead of its fallback", async () => {
    const tree = (
      <Suspense fallback={<span>cargando</span>}>
        <SuspendsWhenHydrated />
      </Suspense>
    );
    container = document.createElement("div");
    container.innerHTML = renderToString(tree);
    document.body.append(container);
    await act(async () => {
      root = hydrateRoot(container, tree);
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    // A synchronous render (useSyncExternalStore's, before) would have replaced it with the fallback.
    expect(container.textContent).toBe("sin JavaScript");
  });


  it("is false on the server, hydrates as false without a mismatch, then turns true; a component mounted afterwards starts at true", async () => {
    const html = renderToString(<Probe />);
    expect(html).toContain("sin JavaScript");
    renders.length = 0;

    container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const recoverable: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, <Probe />, { onRecoverableError: (error) => recoverable.push(error) });
    });
    // The flag of the first hydration settles a task later.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(renders[0]).toBe(false);
    expect(renders.at(-1)).toBe(true);
    expect(container.textContent).toBe("con JavaScript");

    // A client navigation renders its page after that: no render as "sin JavaScript" first.
    renders.length = 0;
    const later = document.createElement("div");
    document.body.append(later);
    const second = createRoot(later);
    await act(async () => second.render(<Probe />));
    expect(renders).toEqual([true]);
    expect(later.textContent).toBe("con JavaScript");
    act(() => second.unmount());
    later.remove();
  });
});
