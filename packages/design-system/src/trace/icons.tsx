import type { ReactNode } from "react";

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
      {children}
    </svg>
  );
}

/** A step: a stack of layers. */
export function StepIcon() {
  return (
    <Icon>
      <path d="M8 2.5 14 5.5 8 8.5 2 5.5Z" />
      <path d="M2 8.5 8 11.5 14 8.5" />
    </Icon>
  );
}

/** A model call: a spark. */
export function ModelIcon() {
  return (
    <Icon>
      <path d="M8 2v3M8 11v3M2 8h3M11 8h3M4 4l1.8 1.8M10.2 10.2 12 12M12 4l-1.8 1.8M5.8 10.2 4 12" />
    </Icon>
  );
}

/** A tool call: a wrench. */
export function ToolIcon() {
  return (
    <Icon>
      <path d="M10.5 2.5a3 3 0 0 0-3.2 4L2.8 11a1.4 1.4 0 0 0 2 2l4.5-4.5a3 3 0 0 0 4-3.2l-1.8 1.8-1.9-.5-.5-1.9Z" />
    </Icon>
  );
}

/** An approval: a raised hand, drawn as a shield. */
export function ApprovalIcon() {
  return (
    <Icon>
      <path d="M8 1.8 13 3.8v4c0 3-2.2 5.2-5 6.4-2.8-1.2-5-3.4-5-6.4v-4Z" />
      <path d="M6 8l1.5 1.5L10.5 6.5" />
    </Icon>
  );
}
