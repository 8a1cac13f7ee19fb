#!/bin/sh
# The deb's post-remove (linux.deb afterRemove): undoes after-install.sh. The CLI link goes only
# if it is still ours.
if [ "$(readlink /usr/bin/workspace-sync)" = '/opt/${sanitizedProductName}/resources/bin/workspace-sync' ]; then
  rm -f /usr/bin/workspace-sync
fi

profile='/etc/apparmor.d/${executable}'
if [ -f "$profile" ]; then
  if apparmor_status --enabled >/dev/null 2>&1 && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --remove "$profile" || true
  fi
  rm -f "$profile"
fi
exit 0
