/**
 * An error above the conversation, which the reader can dismiss; or (`tone: "offline"`, no `onDismiss`)
 * the line that says the server is away, which goes once it is back.
 */
export function ErrorBanner({ message, onDismiss, tone = "error" }: { message: string; onDismiss?: () => void; tone?: "error" | "offline" }) {
  return (
    <div className={tone === "offline" ? "banner banner--offline" : "banner"} role={tone === "offline" ? "status" : "alert"}>
      <span>{message}</span>
      {onDismiss ? (
        <button type="button" className="banner__close" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      ) : null}
    </div>
  );
}
