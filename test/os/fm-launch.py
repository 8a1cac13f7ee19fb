"""Starts a file-manager entry for some items the way its file manager does, with GLib's own
parsing (python3-gi), and exits with the program's exit code: the test compares the argv the
program received with the items.

  fm-launch.py nautilus SCRIPT ITEM...   the script, as Nautilus runs it (its URIs and paths
                                        in the environment, names relative to the folder)
  fm-launch.py nemo ACTION ITEM          nemo-action.c: token expansion, then
                                        g_spawn_command_line_async's g_shell_parse_argv
  fm-launch.py dolphin DESKTOP ITEM...   the service menu's Exec, expanded by GDesktopAppInfo
  fm-launch.py autostart DESKTOP         the entry launched by GDesktopAppInfo, no items
  fm-launch.py thunar UCA_XML ITEM...    Thunar's %f/%F (g_shell_quote) and /bin/sh -c

The Thunar action run is the one whose unique-id is $FM_ENTRY_ID (default: copy the link);
a service menu's action is the one its Actions key names.
"""
import os
import subprocess
import sys
import xml.dom.minidom

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

ENTRY_ID = os.environ.get("FM_ENTRY_ID") or "workspace-sync-copy-link"


def run(argv, **kw):
    return subprocess.run(argv, **kw).returncode


def nautilus(script, items):
    env = dict(os.environ)
    env["NAUTILUS_SCRIPT_SELECTED_URIS"] = "".join(
        Gio.File.new_for_path(p).get_uri() + "\n" for p in items
    )
    env["NAUTILUS_SCRIPT_SELECTED_FILE_PATHS"] = "".join(p + "\n" for p in items)
    folder = os.path.dirname(items[0])
    return run([script] + [os.path.relpath(p, folder) for p in items], cwd=folder, env=env)


# nemo-action.c's tokens (find_token_type) and its Quote types.
NEMO_TOKENS = {"%F": "paths", "%U": "uris", "%P": "parent", "%f": "name", "%p": "parent-name",
               "%N": "name", "%D": "device"}
NEMO_QUOTES = {"single": "'", "double": '"', "backtick": "`"}


def nemo(action, items):
    kf = GLib.KeyFile()
    kf.load_from_file(action, GLib.KeyFileFlags.NONE)
    exec_ = kf.get_string("Nemo Action", "Exec")

    def key(name):
        try:
            return kf.get_string("Nemo Action", name)
        except GLib.Error:
            return None

    quote = NEMO_QUOTES.get(key("Quote") or "", "")
    escape_space = key("EscapeSpaces") == "true"

    def path_of(p):
        # get_path: eel_str_escape_quotes, then eel_str_escape_spaces when asked.
        p = p.replace("'", "\\'").replace('"', '\\"')
        return p.replace(" ", "\\ ") if escape_space else p

    def insertion(kind):
        if kind == "paths":
            return " ".join(quote + path_of(p) + quote for p in items)
        if kind == "uris":
            return " ".join(quote + Gio.File.new_for_path(p).get_uri() + quote for p in items)
        raise SystemExit("fm-launch: token %s not emulated" % kind)

    # expand_action_string: from the first `%` on; a `%` that is no token ends the expansion.
    start = 0
    while True:
        at = exec_.find("%", start)
        if at < 0 or exec_[at:at + 2] not in NEMO_TOKENS:
            break
        text = insertion(NEMO_TOKENS[exec_[at:at + 2]])
        exec_ = exec_[:at] + text + exec_[at + 2:]
        start = at + len(text)
    ok, argv = GLib.shell_parse_argv(exec_)
    return run(argv)


def launch(info, uris):
    pids = []
    info.launch_uris_as_manager(
        uris, None, GLib.SpawnFlags.SEARCH_PATH | GLib.SpawnFlags.DO_NOT_REAP_CHILD,
        None, None, lambda _info, pid, _data: pids.append(pid), None)
    _, status = os.waitpid(pids[0], 0)
    return os.waitstatus_to_exitcode(status)


def dolphin(menu, items):
    kf = GLib.KeyFile()
    kf.load_from_file(menu, GLib.KeyFileFlags.NONE)
    action = kf.get_string("Desktop Entry", "Actions").rstrip(";")
    exec_ = kf.get_string("Desktop Action " + action, "Exec")
    # The action's Exec as an application's: the same Desktop Entry Exec rules.
    app = GLib.KeyFile()
    app.set_string("Desktop Entry", "Type", "Application")
    app.set_string("Desktop Entry", "Name", "entry")
    app.set_string("Desktop Entry", "Exec", exec_)
    info = Gio.DesktopAppInfo.new_from_keyfile(app)
    return launch(info, [Gio.File.new_for_path(p).get_uri() for p in items])


def autostart(entry):
    return launch(Gio.DesktopAppInfo.new_from_filename(entry), [])


def thunar(uca, items):
    doc = xml.dom.minidom.parse(uca)
    command = None
    for action in doc.getElementsByTagName("action"):
        ids = [n.firstChild.data for n in action.getElementsByTagName("unique-id")]
        if ENTRY_ID in ids:
            command = action.getElementsByTagName("command")[0].firstChild.data
    out, i = "", 0
    while i < len(command):
        c = command[i]
        if c == "%" and i + 1 < len(command):
            i += 1
            t = command[i]
            if t == "f":
                out += GLib.shell_quote(items[0])
            elif t == "F":
                out += " ".join(GLib.shell_quote(p) for p in items)
            elif t == "%":
                out += "%"
        else:
            out += c
        i += 1
    return run(["/bin/sh", "-c", out])


def main():
    manager, entry, items = sys.argv[1], sys.argv[2], sys.argv[3:]
    code = {
        "nautilus": lambda: nautilus(entry, items),
        "nemo": lambda: nemo(entry, items),
        "dolphin": lambda: dolphin(entry, items),
        "autostart": lambda: autostart(entry),
        "thunar": lambda: thunar(entry, items),
    }[manager]()
    sys.exit(code)


main()
