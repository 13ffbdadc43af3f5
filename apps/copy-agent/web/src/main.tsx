import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "june-design-system/styles.css";
import { App } from "./app";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("Copy Agent: index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
