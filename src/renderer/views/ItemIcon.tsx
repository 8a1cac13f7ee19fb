import { memo, useEffect, useRef, useState, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  File,
  FileArchive,
  FileAudio,
  FileCode,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  Folder,
  Presentation,
  type LucideIcon,
} from 'lucide-react';
import type { ItemKind } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { categoryOf, type FileCategory } from './file-types';

const ICONS: Record<FileCategory, LucideIcon> = {
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  archive: FileArchive,
  spreadsheet: FileSpreadsheet,
  presentation: Presentation,
  pdf: FileText,
  document: FileText,
  code: FileCode,
  text: FileText,
  other: File,
  none: File,
};

/**
 * An item's icon by its type (lucide's SVGs, drawn inline: no font, no network), or the service's
 * thumbnail of a picture once the backend has it. Decorative: the name beside it says the item.
 */
export const ItemIcon = memo(function ItemIcon({
  kind,
  name,
  size = 18,
  thumbnail,
}: {
  kind: ItemKind;
  name: string;
  size?: number;
  /** The file's id when the service has a thumbnail of it and it may be read now. */
  thumbnail?: { fileId: number; updatedAt: string } | null;
}) {
  if (thumbnail) return <Thumbnail {...thumbnail} kind={kind} name={name} size={size} />;
  return <TypeIcon kind={kind} name={name} size={size} />;
});

/**
 * The icons, once in the page as symbols that every row's icon uses: a row then holds one small
 * <svg> with a <use> instead of lucide's paths, so the rows a scrolled frame lays out cost what
 * they did before icons (Browse's 20,000-row bench). Rendered by Browse, before its rows.
 */
export function IconSprite() {
  return (
    <svg className="icon-sprite" aria-hidden="true" focusable="false">
      <defs>
        <symbol id="ws-icon-folder" viewBox="0 0 24 24">
          {/* An inline style, not a class: it goes with the symbol into each use. */}
          <Folder style={{ fill: 'var(--folder-fill)' }} />
        </symbol>
        {Object.entries(ICONS).map(([category, Icon]) => (
          <symbol key={category} id={`ws-icon-${category}`} viewBox="0 0 24 24">
            <Icon />
          </symbol>
        ))}
      </defs>
    </svg>
  );
}

function TypeIcon({ kind, name, size }: { kind: ItemKind; name: string; size: number }) {
  const key = kind === 'folder' ? 'folder' : categoryOf(name);
  return (
    <svg
      className={`type-icon is-${key}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <use href={`#ws-icon-${key}`} />
    </svg>
  );
}

/**
 * The thumbnail, read through the backend (the window never reaches the service itself) once per
 * file version: kept by TanStack Query for the session, so scrolling back asks nothing again.
 */
function Thumbnail({
  fileId,
  updatedAt,
  kind,
  name,
  size,
}: {
  fileId: number;
  updatedAt: string;
  kind: ItemKind;
  name: string;
  size: number;
}) {
  const api = useApi();
  const account = useAccount();
  const box = useRef<HTMLSpanElement>(null);
  const seen = useSeen(box);
  const picture = useQuery({
    queryKey: ['files.thumbnail', account.id, fileId, updatedAt],
    queryFn: () => api.call('files.thumbnail', { accountId: account.id, fileId }),
    staleTime: Infinity,
    retry: false,
    // Rows are laid out a few beyond the view: only those scrolled into it ask.
    enabled: seen,
  });
  const url = picture.data?.dataUrl;
  if (!url)
    return (
      <span ref={box} className="thumbnail-wait">
        <TypeIcon kind={kind} name={name} size={size} />
      </span>
    );
  return (
    <img
      className="thumbnail"
      src={url}
      alt=""
      width={size}
      height={size}
      decoding="async"
      draggable={false}
    />
  );
}

/** Whether the element has been in view (within its scrolled box) since it was mounted. */
function useSeen(ref: RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}
