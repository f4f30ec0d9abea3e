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
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "memory" -d 'See and steer what ocmem remembers for a workspace'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "remember" -d 'Remember TEXT in this workspace\'s memory (short for `ocmem memory add`)'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "forget" -d 'Forget an entry of this workspace\'s memory (short for `ocmem memory forget`)'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "mcp" -d 'Serve the agent\'s memory tools over the Model Context Protocol, on stdin and stdout'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "sessions" -d 'List the digests of a workspace\'s past sessions, the latest first'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "handoff" -d 'Print a handoff note for the latest (or a given) session of a workspace'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "idle" -d 'Bring a session\'s digest up to date when it goes idle'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "explain" -d 'Show what ocmem makes of a text, and why'
complete -c ocmem -n "__fish_ocmem_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ocmem -n "__fish_ocmem_using_subcommand tool-after" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand tool-after" -l json -d 'Print one JSON line describing what changed'
complete -c ocmem -n "__fish_ocmem_using_subcommand tool-after" -l prune -d 'Also print the output cut down for the model when it is long (bash, grep, glob and list only), its whole text saved under the data directory; nothing when it stays as it is. OCMEM_PRUNE=0 turns it off'
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
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l sweep -d 'Remove idle sessions, old temp files, surplus quarantined copies, stale locks, idle host markers, old saved tool outputs and empty workspace directories'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l false-positives -d 'Remove stored open errors and verified commands that today\'s rules would not record (backed up first)'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l dry-run -d 'Show what would be removed, and change nothing'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -l json -d 'Print the report as one JSON document'
complete -c ocmem -n "__fish_ocmem_using_subcommand gc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l workspace -d 'Only the workspace that DIR belongs to' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l json -d 'Print a JSON document with a stable schema (see the `schema` field) instead of a table'
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l check -d 'Exit 1 when a suspected false positive, stored secret, corrupt file or newer-version store exists, saying why'
complete -c ocmem -n "__fish_ocmem_using_subcommand baseline" -l team -d 'Audit the team memory file (.ocmem/memory.md) of the repository of --workspace DIR or of the current directory instead: conflict markers, malformed lines, duplicates, and entries holding a secret or an instruction, one `FILE:LINE: reason` line each'
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
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l mcp -d 'Register the MCP server of the agent\'s memory tools (`ocmem mcp`), not the hooks'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -l compact-prompt -d 'Codex only: also replace its compaction prompt (`compact_prompt`) with ocmem\'s, which asks for memory candidates'
complete -c ocmem -n "__fish_ocmem_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand doctor" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand doctor" -l json -d 'Print a JSON document with a stable schema (see the `schema` field) instead of a report'
complete -c ocmem -n "__fish_ocmem_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "list" -d 'List the entries: id, type, source, age, whether the block shows them, and their text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "show" -d 'Show one entry whole, with its history: what it superseded, what superseded it, when, why'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "add" -d 'Add TEXT to memory, as source `manual`'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "edit" -d 'Replace an entry\'s text: TEXT, or what you write in $VISUAL or $EDITOR'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "forget" -d 'Forget an entry: by ID, or the one whose text holds every word of --match'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "restore" -d 'Bring a forgotten, edited or replaced entry back as active'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "search" -d 'Search the active entries, best match first'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "export" -d 'Print the active entries, to move them to another machine, folder or person'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "import" -d 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "where" -d 'Print the workspace\'s root and key, and where its stores are'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "off" -d 'Turn memory off for the workspace: every hook for it does nothing and prints nothing'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "on" -d 'Turn memory back on for the workspace'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "hot-state" -d 'Print a session\'s hot state: its active files, open errors, recent decisions and pending memories'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "share" -d 'Copy entries of your memory into team memory, the repository\'s .ocmem/memory.md'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "unshare" -d 'Take an entry out of team memory, keeping it in your own'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and not __fish_seen_subcommand_from list show add edit forget restore search export import where off on hot-state share unshare help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l type -d 'Only entries of this type' -r -f -a "feedback\t''
project\t''
decision\t''
reference\t''"
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l source -d 'Only entries from this source' -r -f -a "explicit\t''
manual\t''
compaction\t''"
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l all -d 'Every entry, with the reason those not shown are not'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l team -d 'Team memory instead: the repository\'s .ocmem/memory.md, shared through git'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from show" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from show" -l team -d 'Team memory instead: the repository\'s .ocmem/memory.md, shared through git'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from show" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l type -d 'feedback, project, decision or reference [default: read from the text]' -r -f -a "feedback\t''
project\t''
decision\t''
reference\t''"
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l agent -d 'The agent wrote TEXT (the agent\'s memory tools pass this): it cannot be forced past the gate'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l force -d 'Keep TEXT even when the gate that every memory passes refuses it (a raw error, a commit hash, a file list, session narration)'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l team -d 'Team memory instead: the repository\'s .ocmem/memory.md, shared through git'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from edit" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from edit" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from edit" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from edit" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -l match -d 'The active entry whose text (or rationale) holds every word of TEXT' -r
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -l all -d 'With --match: forget every entry that matches'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from restore" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from restore" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from restore" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from restore" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -l limit -d 'At most this many results' -r
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -l team -d 'Team memory instead: the repository\'s .ocmem/memory.md, shared through git'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l format -d 'json (the store\'s format) or markdown; --json is --format json' -r -f -a "json\t'A document in the workspace memory format, which `import` reads'
markdown\t'A section per type, a line per entry, which `import` reads too'"
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l agents-md -d 'Write the team memory into a marked section of AGENTS.md at the repository\'s root (created if absent; the rest of the file is kept byte for byte), for agents without ocmem'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l claude-md -d 'The same, into CLAUDE.md'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from import" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from import" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from import" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from import" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from where" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from where" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from where" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from where" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from where" -s h -l help -d 'Print help'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from off" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from off" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from off" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from off" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from off" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from on" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from on" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from on" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from on" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from on" -s h -l help -d 'Print help'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from hot-state" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from hot-state" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from hot-state" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from hot-state" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from hot-state" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from share" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from share" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from share" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from share" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from share" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from unshare" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from unshare" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from unshare" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from unshare" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from unshare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the entries: id, type, source, age, whether the block shows them, and their text'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one entry whole, with its history: what it superseded, what superseded it, when, why'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add TEXT to memory, as source `manual`'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Replace an entry\'s text: TEXT, or what you write in $VISUAL or $EDITOR'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "forget" -d 'Forget an entry: by ID, or the one whose text holds every word of --match'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Bring a forgotten, edited or replaced entry back as active'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "search" -d 'Search the active entries, best match first'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "export" -d 'Print the active entries, to move them to another machine, folder or person'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "import" -d 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "where" -d 'Print the workspace\'s root and key, and where its stores are'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "off" -d 'Turn memory off for the workspace: every hook for it does nothing and prints nothing'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "on" -d 'Turn memory back on for the workspace'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "hot-state" -d 'Print a session\'s hot state: its active files, open errors, recent decisions and pending memories'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "share" -d 'Copy entries of your memory into team memory, the repository\'s .ocmem/memory.md'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "unshare" -d 'Take an entry out of team memory, keeping it in your own'
complete -c ocmem -n "__fish_ocmem_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l type -d 'feedback, project, decision or reference [default: read from the text]' -r -f -a "feedback\t''
project\t''
decision\t''
reference\t''"
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l agent -d 'The agent wrote TEXT (the agent\'s memory tools pass this): it cannot be forced past the gate'
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l force -d 'Keep TEXT even when the gate that every memory passes refuses it (a raw error, a commit hash, a file list, session narration)'
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l team -d 'Team memory instead: the repository\'s .ocmem/memory.md, shared through git'
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand remember" -s h -l help -d 'Print help'
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -l match -d 'The active entry whose text (or rationale) holds every word of TEXT' -r
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -l all -d 'With --match: forget every entry that matches'
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -l json -d 'Print one JSON document instead of text'
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -l user -d 'Act on user memory, the preferences that follow you across projects, instead of the workspace\'s'
complete -c ocmem -n "__fish_ocmem_using_subcommand forget" -s h -l help -d 'Print help'
complete -c ocmem -n "__fish_ocmem_using_subcommand mcp" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand mcp" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand sessions" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand sessions" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand sessions" -l json -d 'Print the digests as a JSON array instead of a listing'
complete -c ocmem -n "__fish_ocmem_using_subcommand sessions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand handoff" -l session -d 'The session\'s id (as the host names it) [default: the latest]' -r
complete -c ocmem -n "__fish_ocmem_using_subcommand handoff" -l write -d 'Also write the note to PATH' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand handoff" -l workspace -d 'The workspace that DIR belongs to [default: the current directory\'s]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand handoff" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand handoff" -l force -d 'With --write: replace PATH even when it changed since ocmem last wrote it'
complete -c ocmem -n "__fish_ocmem_using_subcommand handoff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand idle" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand idle" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand explain" -l data-dir -d 'Data directory holding the stores [env: OCMEM_DATA_DIR]' -r -F
complete -c ocmem -n "__fish_ocmem_using_subcommand explain" -l candidate -d 'Read the text as a memory candidate line (`- [type] text`)'
complete -c ocmem -n "__fish_ocmem_using_subcommand explain" -l json -d 'Print the report as one JSON object'
complete -c ocmem -n "__fish_ocmem_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "tool-after" -d 'Record a finished tool call in the session\'s hot state'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "render" -d 'Print the memory block for the system prompt, and capture explicit memories'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "compact" -d 'Print what to add to the compaction prompt'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "promote" -d 'File the memory candidates of a finished compaction'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "gc" -d 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "baseline" -d 'Audit every store under the data directory, read-only'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "replay" -d 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "hook" -d 'Run as a host\'s hook: one entry point for every event of a host that runs command hooks'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "init" -d 'Install ocmem into a host: OpenCode\'s plugin, or Claude Code\'s hooks'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "doctor" -d 'Check that memory works, and say how to fix what does not'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "memory" -d 'See and steer what ocmem remembers for a workspace'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "remember" -d 'Remember TEXT in this workspace\'s memory (short for `ocmem memory add`)'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "forget" -d 'Forget an entry of this workspace\'s memory (short for `ocmem memory forget`)'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "mcp" -d 'Serve the agent\'s memory tools over the Model Context Protocol, on stdin and stdout'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "sessions" -d 'List the digests of a workspace\'s past sessions, the latest first'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "handoff" -d 'Print a handoff note for the latest (or a given) session of a workspace'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "idle" -d 'Bring a session\'s digest up to date when it goes idle'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "explain" -d 'Show what ocmem makes of a text, and why'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and not __fish_seen_subcommand_from tool-after render compact promote gc baseline replay hook init doctor memory remember forget mcp sessions handoff idle explain help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "list" -d 'List the entries: id, type, source, age, whether the block shows them, and their text'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "show" -d 'Show one entry whole, with its history: what it superseded, what superseded it, when, why'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "add" -d 'Add TEXT to memory, as source `manual`'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "edit" -d 'Replace an entry\'s text: TEXT, or what you write in $VISUAL or $EDITOR'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "forget" -d 'Forget an entry: by ID, or the one whose text holds every word of --match'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "restore" -d 'Bring a forgotten, edited or replaced entry back as active'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "search" -d 'Search the active entries, best match first'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "export" -d 'Print the active entries, to move them to another machine, folder or person'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "import" -d 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "where" -d 'Print the workspace\'s root and key, and where its stores are'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "off" -d 'Turn memory off for the workspace: every hook for it does nothing and prints nothing'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "on" -d 'Turn memory back on for the workspace'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "hot-state" -d 'Print a session\'s hot state: its active files, open errors, recent decisions and pending memories'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "share" -d 'Copy entries of your memory into team memory, the repository\'s .ocmem/memory.md'
complete -c ocmem -n "__fish_ocmem_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "unshare" -d 'Take an entry out of team memory, keeping it in your own'
