/** An error the reader can dismiss, above the conversation. */
export function ErrorBanner({ message, onDismiss }: { message: string; onDismiss(): void }) {
  return (
    <div className="banner" role="alert">
      <span>{message}</span>
      <button type="button" className="banner__close" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
