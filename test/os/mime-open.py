"""Asks GLib's MIME database what a file manager built on GIO (Nautilus, Nemo, Thunar) asks
on a double-click, in the XDG dirs of the environment (python3-gi):

  mime-open.py type PATH       the content type of the file (what `gio info` says)
  mime-open.py default TYPE    the desktop id of the type's default app ('' if none)
  mime-open.py open PATH       a double-click: the file's default handler
                               (g_file_query_default_handler, as `gio open` uses) launched on
                               it; prints its desktop id, waits, exits with the app's status
"""
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


def content_type(path):
    info = Gio.File.new_for_path(path).query_info("standard::content-type", 0, None)
    return info.get_content_type()


def default(type_):
    app = Gio.AppInfo.get_default_for_type(type_, False)
    return app.get_id() if app else ""


def open_(path):
    f = Gio.File.new_for_path(path)
    app = f.query_default_handler(None)
    print(app.get_id(), flush=True)
    pids = []
    app.launch_uris_as_manager(
        [f.get_uri()], None, GLib.SpawnFlags.SEARCH_PATH | GLib.SpawnFlags.DO_NOT_REAP_CHILD,
        None, None, lambda _info, pid, _data: pids.append(pid), None)
    _, status = os.waitpid(pids[0], 0)
    return os.waitstatus_to_exitcode(status)


def main():
    what, arg = sys.argv[1], sys.argv[2]
    if what == "type":
        print(content_type(arg))
    elif what == "default":
        print(default(arg))
    else:
        sys.exit(open_(arg))


main()
