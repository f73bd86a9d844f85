#!/bin/sh
# Installs the Printwire agent as a launchd daemon that starts at boot, as the role account
# _printwire, with its data in /Library/Application Support/Printwire Agent.
#   sudo ./install.sh            install (or reinstall) and start
#   sudo ./install.sh uninstall  stop and remove the daemon (the data and the account stay)
# The agent itself must be installed first at /usr/local/bin/printwire-agent (PRINTWIRE_AGENT
# names another path). `printwire-agent service install` does the same steps.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
LABEL=com.printwire.agent
PLIST=/Library/LaunchDaemons/$LABEL.plist
DATA="/Library/Application Support/Printwire Agent"
AGENT=${PRINTWIRE_AGENT:-/usr/local/bin/printwire-agent}

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh changes the system: run it with sudo" >&2
  exit 1
fi

case "${1:-install}" in
install)
  if [ ! -x "$AGENT" ]; then
    echo "$AGENT is not there: install the agent first" >&2
    exit 1
  fi
  if ! dscl . -read /Users/_printwire >/dev/null 2>&1; then
    echo "making the role account _printwire"
    (
    u=_printwire
    id=300
    while dscl . -list /Users UniqueID | awk '{print $2}' | grep -qx "$id" || dscl . -list /Groups PrimaryGroupID | awk '{print $2}' | grep -qx "$id"; do id=$((id + 1)); done
    dscl . -create /Groups/$u PrimaryGroupID "$id"
    dscl . -create /Users/$u UniqueID "$id"
    dscl . -create /Users/$u PrimaryGroupID "$id"
    dscl . -create /Users/$u UserShell /usr/bin/false
    dscl . -create /Users/$u NFSHomeDirectory /var/empty
    dscl . -create /Users/$u RealName "Printwire Agent"
    dscl . -create /Users/$u IsHidden 1
    )
  fi
  mkdir -p "$DATA/logs"
  chown -R _printwire:_printwire "$DATA"
  chmod 750 "$DATA"
  launchctl bootout "system/$LABEL" 2>/dev/null || true
  sed "s|<string>/usr/local/bin/printwire-agent</string>|<string>$AGENT</string>|" \
    "$HERE/$LABEL.plist" >"$PLIST"
  chown root:wheel "$PLIST"
  chmod 644 "$PLIST"
  plutil -lint "$PLIST" >/dev/null
  launchctl bootstrap system "$PLIST"
  echo "installed: $PLIST (logs in $DATA/logs)"
  ;;
uninstall)
  launchctl bootout "system/$LABEL" 2>/dev/null || true
  rm -f "$PLIST"
  echo "removed $PLIST; the data in $DATA and the account _printwire stay"
  ;;
*)
  echo "usage: sudo $0 [install|uninstall]" >&2
  exit 2
  ;;
esac
