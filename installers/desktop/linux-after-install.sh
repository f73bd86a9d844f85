#!/bin/sh
# After the desktop .deb installs: the people who use the app may open USB printers when they
# are in group lp (the headless package's udev rules give lp the printer class). Nothing else.
set -e
echo "Printwire: add your user to group lp to use USB printers: sudo usermod -aG lp \$USER"
