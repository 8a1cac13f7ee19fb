#!/bin/sh
# The deb's post-install (linux.deb afterInstall); electron-builder fills in ${sanitizedProductName}
# and ${executable}. The steps of electron-builder's own script, except that /usr/bin/workspace-sync
# is the CLI launcher, not the app binary.
app='/opt/${sanitizedProductName}'

ln -sf "$app/resources/bin/workspace-sync" /usr/bin/workspace-sync

# Chromium's sandbox helper needs SUID only where unprivileged user namespaces do not work.
if [ -L /proc/self/ns/user ] && unshare --user true 2>/dev/null; then
  chmod 0755 "$app/chrome-sandbox" || true
else
  chmod 4755 "$app/chrome-sandbox" || true
fi

if command -v update-mime-database >/dev/null 2>&1; then update-mime-database /usr/share/mime || true; fi
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database /usr/share/applications || true; fi

# AppArmor (Ubuntu 24.04+ allows user namespaces only to profiled programs): install the profile
# electron-builder ships, where this AppArmor can parse it.
profile='/etc/apparmor.d/${executable}'
if apparmor_status --enabled >/dev/null 2>&1 &&
  apparmor_parser --skip-kernel-load --debug "$app/resources/apparmor-profile" >/dev/null 2>&1; then
  cp -f "$app/resources/apparmor-profile" "$profile"
  if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --replace --write-cache --skip-read-cache "$profile" || true
  fi
fi
exit 0
