import { useCallback, useEffect, useRef, useState } from 'react';
import { COPIED_HINT_MS } from '../../shared/constants';

/** Copies text; falls back to a hidden textarea where the async clipboard is unavailable (plain http). */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      /* permission refused: try the old way */
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand?.('copy');
  area.remove();
  if (!ok) throw new Error('Copy is not available');
}

/** `copied` is true for COPIED_HINT_MS (2 s) after a successful copy: the 'Copied!' hint. */
export function useCopy(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string) => {
    try {
      await copyText(text);
    } catch (error) {
      console.error('Copy failed', error);
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_HINT_MS);
  }, []);
  return { copied, copy };
}
