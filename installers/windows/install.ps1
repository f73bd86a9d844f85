#Requires -RunAsAdministrator
<#
.SYNOPSIS
  Installs the Printwire agent as a Windows service with WinSW 2.x.
.DESCRIPTION
  Run from the agent's folder (node.exe, agent\dist\printwire-agent.mjs, node_modules\ and
  printwire-agent-service.xml beside this script), in an administrator PowerShell:
    .\install.ps1 -WinSW C:\Downloads\WinSW-x64.exe   install (automatic start) and start
    .\install.ps1 -Uninstall                          stop and remove the service (the data stays)
  The service runs as NT AUTHORITY\LocalService with its data in %ProgramData%\Printwire\Agent.
  `printwire-agent service install --winsw PATH` does the same steps.
#>
param(
  [string]$WinSW,
  [switch]$Uninstall
)
$ErrorActionPreference = 'Stop'

$Base = $PSScriptRoot
$Wrapper = Join-Path $Base 'printwire-agent-service.exe'
$Data = Join-Path $env:ProgramData 'Printwire\Agent'

function Invoke-Wrapper([string]$Command, [switch]$MayFail) {
  & $Wrapper $Command
  if ($LASTEXITCODE -ne 0 -and -not $MayFail) {
    throw "printwire-agent-service.exe $Command failed (exit code $LASTEXITCODE)"
  }
}

if ($Uninstall) {
  Invoke-Wrapper stop -MayFail
  Invoke-Wrapper uninstall
  Write-Host "The service printwire-agent is removed; the data in $Data stays."
  exit 0
}

foreach ($file in 'node.exe', 'agent\dist\printwire-agent.mjs', 'printwire-agent-service.xml') {
  if (-not (Test-Path (Join-Path $Base $file))) {
    throw "$file is missing from ${Base}; run install.ps1 from the agent's folder"
  }
}
if (-not (Test-Path $Wrapper)) {
  if (-not $WinSW) {
    throw '-WinSW PATH is needed the first time: the WinSW 2.x executable (WinSW-x64.exe)'
  }
  Copy-Item -Path $WinSW -Destination $Wrapper
}

New-Item -ItemType Directory -Force -Path (Join-Path $Data 'logs') | Out-Null
# LocalService (S-1-5-19) may change the data folder, and nothing else.
& icacls $Data /grant '*S-1-5-19:(OI)(CI)M' /T /Q | Out-Null
if ($LASTEXITCODE -ne 0) { throw "icacls could not give $Data to LocalService" }

Invoke-Wrapper install
Invoke-Wrapper start
Write-Host "The service printwire-agent is installed and started (logs in $Data\logs)."
