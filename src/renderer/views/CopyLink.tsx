import { useMutation } from '@tanstack/react-query';
import { API_GLOBAL } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * Copies an item's share link; resolves to the text copied. The host copies where it can (the
 * desktop app); in a browser only the page itself may write the clipboard, so the text the host
 * returns is written here too. Used by the item panel and Browse's context menu.
 */
export function useCopyLink() {
  const api = useApi();
  const account = useAccount();
  return useMutation({
    mutationFn: async (item: SelectedItem) => {
      const { text } = await api.call('links.copy', {
        accountId: account.id,
        kind: item.kind,
        itemId: item.id,
      });
      try {
        await navigator.clipboard.writeText(text);
      } catch (error) {
        // Under the desktop app the host has put it on the clipboard already.
        if (!(API_GLOBAL in window)) throw error;
      }
      return text;
    },
  });
}

export function CopyLink({ item }: { item: SelectedItem }) {
  const copy = useCopyLink();
  return (
    <div className="copy">
      <button type="button" className="primary" onClick={() => copy.mutate(item)}>
        {strings.item.copy}
      </button>
      <p role="status" aria-live="polite" className="copied">
        {copy.isSuccess && strings.item.copied(copy.data)}
      </p>
      {copy.isError && <ErrorMessage error={copy.error} title={strings.item.copyFailed} />}
    </div>
  );
}
