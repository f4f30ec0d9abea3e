# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ocmem_global_optspecs
    string join \n data-dir= h/help V/version
end

function __fish_ocmem_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ocmem_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ocmem_using_subcommand
    set -l cmd (__fish_ocmem_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ocmem -n "__fish_ocmem_needs_command" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_needs_command" -s V -l version -d 'Print version'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "tool-after" -d 'Record a finished tool call in the session\'s hot state'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "render" -d 'Print the memory block for the system prompt, and capture explicit memories'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "compact" -d 'Print what to add to the compaction prompt'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "promote" -d 'File the memory candidates of a finished compaction'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "gc" -d 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "baseline" -d 'Audit every store under the data directory, read-only'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "replay" -d 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "hook" -d 'Run as a host\'s hook: one entry point for every event of a host that runs command hooks'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "init" -d 'Install ocmem into a host: OpenCode\'s plugin, or Claude Code\'s hooks'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "doctor" -d 'Check that memory works, and say how to fix what does not'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ocmem -n "__fish_ocmem_using_subcommand tool-after" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand tool-after" -l json -d 'Print one JSON line describing what changed'
complete -c ocmem -n "__fish_ocmem_using_subcommand tool-after" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand render" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand render" -l json -d 'Print {"workspace": …, "session": …} as one JSON line instead'
complete -c ocmem -n "__fish_ocmem_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand compact" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand compact" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand promote" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand promote" -l json -d 'Print the accepted and rejected candidates, with the reason for each, as one JSON line'
complete -c ocmem -n "__fish_ocmem_using_subcommand promote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l older-than -d 'With --sweep: remove sessions idle longer than DAYS (1-365) [env: OCMEM_TTL_DAYS] [default: 30]' -r
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l workspace -d 'Only the workspace that DIR belongs to' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l restore-archived -d 'Bring the archived workspace memory entry ID back as active' -r
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l sweep -d 'Remove idle sessions, old temp files, surplus quarantined copies, stale locks, idle host markers and empty workspace directories'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l false-positives -d 'Remove stored open errors and verified commands that today\'s rules would not record (backed up first)'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l dry-run -d 'Show what would be removed, and change nothing'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l json -d 'Print the report as one JSON document'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l workspace -d 'Only the workspace that DIR belongs to' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l json -d 'Print a JSON document with a stable schema (see the `schema` field) instead of a table'
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l check -d 'Exit 1 when a suspected false positive, stored secret, corrupt file or newer-version store exists, saying why'
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand replay" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand hook" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand hook" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l project -d 'For the project of the current directory (its git worktree\'s top level), the default'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l user -d 'For the user: every project'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l print -d 'Show what would be written, and change nothing'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l uninstall -d 'Take ocmem out of the host again'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand doctor" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand doctor" -l json -d 'Print a JSON document with a stable schema (see the `schema` field) instead of a report'
complete -c ocmem -n "__fish_ocmem_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "tool-after" -d 'Record a finished tool call in the session\'s hot state'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "render" -d 'Print the memory block for the system prompt, and capture explicit memories'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "compact" -d 'Print what to add to the compaction prompt'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "promote" -d 'File the memory candidates of a finished compaction'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "gc" -d 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "baseline" -d 'Audit every store under the data directory, read-only'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "replay" -d 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "hook" -d 'Run as a host\'s hook: one entry point for every event of a host that runs command hooks'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "init" -d 'Install ocmem into a host: OpenCode\'s plugin, or Claude Code\'s hooks'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "doctor" -d 'Check that memory works, and say how to fix what does not'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
