; Included by electron-builder's NSIS script (electron-builder.yml nsis.include).
; A per-machine install starts Printwire at every user's login; the app's own "Start at login"
; setting then follows each user's choice (HKCU).
!macro customInstall
  WriteRegStr HKLM "Software\Microsoft\Windows\CurrentVersion\Run" "Printwire" '"$INSTDIR\Printwire.exe" --hidden'
!macroend

!macro customUnInstall
  DeleteRegValue HKLM "Software\Microsoft\Windows\CurrentVersion\Run" "Printwire"
!macroend
