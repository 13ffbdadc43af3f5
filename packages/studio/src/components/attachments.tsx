/** A file shown with a message: a thumbnail for an image, a chip (its name and size) for anything else. */
export interface Attachment {
  /** A React key. */
  key: string;
  /** Where its bytes are: the server's file route, or a local object URL before the turn is journaled. */
  url: string;
  mediaType: string;
  filename?: string;
  size: number;
}

/** The files of a message, under its text: images as thumbnails, other files as chips; each opens its file. */
export function Attachments({ files, onRemove }: { files: readonly Attachment[]; onRemove?: (key: string) => void }) {
  if (files.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {files.map((file) => {
        const name = file.filename ?? (isImage(file.mediaType) ? "image" : file.mediaType);
        return (
          <li key={file.key} className={isImage(file.mediaType) ? "attachment attachment--image" : "attachment attachment--file"} data-media-type={file.mediaType}>
            <a href={file.url} target="_blank" rel="noreferrer" className="attachment__open" title={`${name} · ${formatBytes(file.size)}`}>
              {isImage(file.mediaType) ? (
                <img className="attachment__thumb" src={file.url} alt={name} />
              ) : (
                <>
                  <FileIcon />
                  <span className="attachment__name">{name}</span>
                  <span className="attachment__size">{formatBytes(file.size)}</span>
                </>
              )}
            </a>
            {onRemove ? (
              <button type="button" className="attachment__remove" aria-label={`Remove ${name}`} onClick={() => onRemove(file.key)}>
                ×
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

export function isImage(mediaType: string): boolean {
  return mediaType.startsWith("image/");
}

/** `812 B`, `14 KB`, `3.2 MB`. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${Math.round(size / 1024)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

function FileIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 1.5h5l3.5 3.5v9.5h-8.5z" />
      <path d="M9 1.5V5h3.5" />
    </svg>
  );
}
