// React DOM's client, imported through this module so that its body runs when React DOM's chunk is
// evaluated (vite.config.ts puts this module in that chunk): the page's module start gives that
// evaluation a task of its own, instead of running React DOM's body inside the client entry's task
// with the route modules' (docs/decisions/0068).
export { hydrateRoot } from "react-dom/client";
