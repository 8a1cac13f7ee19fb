@echo off
rem The headless CLI of an installed Workspace Sync: the app binary runs the CLI when started
rem with --cli (the RunAsNode fuse is off). Lives in the install folder, in resources\bin.
"%~dp0..\..\Workspace Sync.exe" --cli %*
exit /b %ERRORLEVEL%
