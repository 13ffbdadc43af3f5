import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { describeTrace, summarizeTrace, TraceList, type TraceActions } from "../../index.js";
import "../../styles.css";
import { everyRow, modelChatRows } from "../rows.js";

/** The visual check's page: every row kind in every state, once forced light and once forced dark. */
function Gallery() {
  const [decisions, setDecisions] = useState<string[]>([]);
  const actions: TraceActions = {
    approve: async (approvalId) => setDecisions((all) => [...all, `approve ${approvalId}`]),
    deny: async (approvalId, reason) => setDecisions((all) => [...all, `deny ${approvalId}: ${reason}`]),
  };
  return (
    <main style={{ display: "grid", gridTemplateColumns: "1fr 1fr", fontFamily: "system-ui, sans-serif" }}>
      {(["light", "dark"] as const).map((theme) => (
        <section
          key={theme}
          data-june-theme={theme}
          data-testid={theme}
          style={{ background: "var(--jt-surface)", color: "var(--jt-text)", padding: "16px 20px" }}
        >
          <h2 style={{ margin: "0 0 4px", fontSize: 15 }}>{theme === "light" ? "Light" : "Dark"}</h2>
          <p style={{ margin: "0 0 12px", fontSize: 12, color: "var(--jt-muted)" }}>{describeTrace(summarizeTrace(everyRow))}</p>
          <TraceList rows={everyRow} actions={actions} />
          <h3 style={{ margin: "16px 0 4px", fontSize: 13 }}>A model chat</h3>
          <TraceList rows={modelChatRows} />
        </section>
      ))}
      <ol id="decisions" style={{ gridColumn: "1 / 3", margin: 0, padding: "8px 36px", fontSize: 12 }}>
        {decisions.map((decision, index) => (
          <li key={index}>{decision}</li>
        ))}
      </ol>
    </main>
  );
}

const root = document.getElementById("root");
if (!root) throw new Error("gallery: index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <Gallery />
  </StrictMode>,
);
