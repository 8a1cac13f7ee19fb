import { useCallback, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { formatDate, formatRelative } from '../format';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { UndoNotice } from './UndoNotice';

export function Comments({ item, mayComment }: { item: SelectedItem; mayComment: boolean }) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const on = { accountId: account.id, kind: item.kind, itemId: item.id };
  const key = ['comments', account.id, item.kind, item.id];
  const comments = useQuery({ queryKey: key, queryFn: () => api.call('comments.list', on) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: (text: string) => api.call('comments.add', { ...on, body: text }),
    onSuccess: async () => {
      setBody('');
      await refresh();
    },
  });
  // The comment last deleted here: Undo posts its text again (the service keeps no deleted
  // comment to restore, so it comes back as a new one, of now; the notice says so).
  const [deleted, setDeleted] = useState<{ id: number; body: string } | null>(null);
  const forget = useCallback(() => setDeleted(null), []);
  const remove = useMutation({
    mutationFn: async (c: { id: number; body: string }) => {
      await api.call('comments.delete', { ...on, commentId: c.id });
      setDeleted(c);
    },
    onSuccess: refresh,
  });
  const postAgain = async (text: string) => {
    await api.call('comments.add', { ...on, body: text });
    await refresh();
    return strings.undo.commentBack;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (body.trim()) add.mutate(body.trim());
  };

  return (
    <section aria-labelledby="comments-title" className="panel-section">
      <h3 id="comments-title">{strings.item.comments}</h3>
      {comments.isPending && <Loading />}
      {comments.isError && <ErrorMessage error={comments.error} />}
      {comments.data?.items.length === 0 && <Empty>{strings.item.noComments}</Empty>}
      {comments.data?.cut && <p className="muted">{strings.listCut(comments.data.items.length)}</p>}
      {comments.data && comments.data.items.length > 0 && (
        <ul className="comments" aria-label={strings.item.comments}>
          {comments.data.items.map((c) => {
            const author = c.author || strings.item.unknownAuthor;
            return (
              <li key={c.id} className="comment">
                <p className="comment-meta">
                  <strong>{author}</strong>
                  {c.updatedAt && (
                    <time dateTime={c.updatedAt} title={formatDate(c.updatedAt)}>
                      {formatRelative(c.updatedAt)}
                    </time>
                  )}
                </p>
                <p className="comment-body">{c.body}</p>
                {c.mayDelete && (
                  <button
                    type="button"
                    className="link-button danger"
                    aria-label={strings.item.deleteCommentLabel(author)}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ id: c.id, body: c.body })}
                  >
                    {strings.item.deleteComment}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {remove.isError && <ErrorMessage error={remove.error} />}
      {deleted && (
        <UndoNotice
          key={deleted.id}
          text={strings.undo.commentDeleted}
          undoLabel={strings.undo.commentUndoLabel}
          onUndo={() => postAgain(deleted.body)}
          onDone={forget}
        />
      )}
      {!mayComment && <p className="muted">{strings.item.mayNotComment}</p>}
      {mayComment && (
        <form onSubmit={submit} className="comment-form">
          <label htmlFor="comment-body">{strings.item.addComment}</label>
          <textarea
            id="comment-body"
            rows={2}
            placeholder={strings.item.commentPlaceholder}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
          {add.isError && <ErrorMessage error={add.error} />}
          <button type="submit" disabled={add.isPending || !body.trim()}>
            {add.isPending ? strings.item.posting : strings.item.post}
          </button>
        </form>
      )}
    </section>
  );
}
