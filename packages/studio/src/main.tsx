import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { clientForPage } from "./api/client";
import { App } from "./components/app";
import "june-design-system/styles.css";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("June Studio: index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <App client={clientForPage()} />
  </StrictMode>,
);
