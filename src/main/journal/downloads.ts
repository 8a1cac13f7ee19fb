import { Repository } from './repository';
import type { Db } from './schema';

/** A download interrupted part-way: its temporary file may be resumed while the item is as then. */
export interface PendingDownload {
  remoteId: number;
  tempName: string;
  remoteUpdatedAt: string | null;
  remoteSize: number;
}

type Row = {
  remote_id: number;
  temp_name: string;
  remote_updated_at: string | null;
  remote_size: number;
};

const fromRow = (r: Row): PendingDownload => ({
  remoteId: r.remote_id,
  tempName: r.temp_name,
  remoteUpdatedAt: r.remote_updated_at,
  remoteSize: r.remote_size,
});

/** Downloads in progress (`downloads`), one row per item. */
export class DownloadsRepo extends Repository {
  constructor(db: Db) {
    super(db, {
      get: `SELECT * FROM downloads WHERE remote_id = ?`,
      put: `INSERT OR REPLACE INTO downloads
        (remote_id, temp_name, remote_updated_at, remote_size) VALUES (?, ?, ?, ?)`,
      del: `DELETE FROM downloads WHERE remote_id = ?`,
      all: `SELECT * FROM downloads`,
    });
  }

  get(remoteId: number): PendingDownload | undefined {
    const r = this.s.get!.get(remoteId) as Row | undefined;
    return r && fromRow(r);
  }

  put(d: PendingDownload): void {
    this.s.put!.run(d.remoteId, d.tempName, d.remoteUpdatedAt, d.remoteSize);
  }

  remove(remoteId: number): void {
    this.s.del!.run(remoteId);
  }

  all(): PendingDownload[] {
    return (this.s.all!.all() as Row[]).map(fromRow);
  }
}
