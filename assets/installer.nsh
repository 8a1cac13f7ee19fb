; Included by electron-builder's NSIS installer (nsis.include in electron-builder.yml).
; Explorer's "Copy Workspace Sync link" on files and folders. The verbs live under
; HKCU\Software\Classes so they need no elevation and belong to the user who installed the app;
; the uninstaller removes exactly these two keys.
!define WS_COPY_LINK_VERB "shell\WorkspaceSync.CopyLink"

!macro wsWriteCopyLinkVerb CLASS
  WriteRegStr HKCU "Software\Classes\${CLASS}\${WS_COPY_LINK_VERB}" "MUIVerb" "Copy Workspace Sync link"
  WriteRegStr HKCU "Software\Classes\${CLASS}\${WS_COPY_LINK_VERB}" "Icon" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr HKCU "Software\Classes\${CLASS}\${WS_COPY_LINK_VERB}\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" --copy-link "%1"'
!macroend

!macro customInstall
  !insertmacro wsWriteCopyLinkVerb "*"
  !insertmacro wsWriteCopyLinkVerb "Directory"
!macroend

!macro customUnInstall
  DeleteRegKey HKCU "Software\Classes\*\${WS_COPY_LINK_VERB}"
  DeleteRegKey HKCU "Software\Classes\Directory\${WS_COPY_LINK_VERB}"
!macroend
