
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ocmem' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ocmem'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ocmem' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('tool-after', 'tool-after', [CompletionResultType]::ParameterValue, 'Record a finished tool call in the session''s hot state')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the memory block for the system prompt, and capture explicit memories')
            [CompletionResult]::new('compact', 'compact', [CompletionResultType]::ParameterValue, 'Print what to add to the compaction prompt')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'File the memory candidates of a finished compaction')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors')
            [CompletionResult]::new('baseline', 'baseline', [CompletionResultType]::ParameterValue, 'Audit every store under the data directory, read-only')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Run as a host''s hook: one entry point for every event of a host that runs command hooks')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Install ocmem into a host: OpenCode''s plugin, or Claude Code''s hooks')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check that memory works, and say how to fix what does not')
            [CompletionResult]::new('memory', 'memory', [CompletionResultType]::ParameterValue, 'See and steer what ocmem remembers for a workspace')
            [CompletionResult]::new('remember', 'remember', [CompletionResultType]::ParameterValue, 'Remember TEXT in this workspace''s memory (short for `ocmem memory add`)')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget an entry of this workspace''s memory (short for `ocmem memory forget`)')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the agent''s memory tools over the Model Context Protocol, on stdin and stdout')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'List the digests of a workspace''s past sessions, the latest first')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Print a handoff note for the latest (or a given) session of a workspace')
            [CompletionResult]::new('idle', 'idle', [CompletionResultType]::ParameterValue, 'Bring a session''s digest up to date when it goes idle')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show what ocmem makes of a text, and why')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ocmem;tool-after' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON line describing what changed')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Also print the output cut down for the model when it is long (bash, grep, glob and list only), its whole text saved under the data directory; nothing when it stays as it is. OCMEM_PRUNE=0 turns it off')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;render' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print {"workspace": …, "session": …} as one JSON line instead')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;compact' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;promote' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the accepted and rejected candidates, with the reason for each, as one JSON line')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;gc' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'With --sweep: remove sessions idle longer than DAYS (1-365) [env: OCMEM_TTL_DAYS] [default: 30]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'Only the workspace that DIR belongs to')
            [CompletionResult]::new('--restore-archived', '--restore-archived', [CompletionResultType]::ParameterName, 'Bring the archived workspace memory entry ID back as active')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--sweep', '--sweep', [CompletionResultType]::ParameterName, 'Remove idle sessions, old temp files, surplus quarantined copies, stale locks, idle host markers, old saved tool outputs and empty workspace directories')
            [CompletionResult]::new('--false-positives', '--false-positives', [CompletionResultType]::ParameterName, 'Remove stored open errors and verified commands that today''s rules would not record (backed up first)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would be removed, and change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the report as one JSON document')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;baseline' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'Only the workspace that DIR belongs to')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON document with a stable schema (see the `schema` field) instead of a table')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Exit 1 when a suspected false positive, stored secret, corrupt file or newer-version store exists, saying why')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Audit the team memory file (.ocmem/memory.md) of the repository of --workspace DIR or of the current directory instead: conflict markers, malformed lines, duplicates, and entries holding a secret or an instruction, one `FILE:LINE: reason` line each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;replay' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;hook' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;init' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'For the project of the current directory (its git worktree''s top level), the default')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'For the user: every project')
            [CompletionResult]::new('--print', '--print', [CompletionResultType]::ParameterName, 'Show what would be written, and change nothing')
            [CompletionResult]::new('--uninstall', '--uninstall', [CompletionResultType]::ParameterName, 'Take ocmem out of the host again')
            [CompletionResult]::new('--mcp', '--mcp', [CompletionResultType]::ParameterName, 'Register the MCP server of the agent''s memory tools (`ocmem mcp`), not the hooks')
            [CompletionResult]::new('--compact-prompt', '--compact-prompt', [CompletionResultType]::ParameterName, 'Codex only: also replace its compaction prompt (`compact_prompt`) with ocmem''s, which asks for memory candidates')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;doctor' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON document with a stable schema (see the `schema` field) instead of a report')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries: id, type, source, age, whether the block shows them, and their text')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry whole, with its history: what it superseded, what superseded it, when, why')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add TEXT to memory, as source `manual`')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace an entry''s text: TEXT, or what you write in $VISUAL or $EDITOR')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget an entry: by ID, or the one whose text holds every word of --match')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring a forgotten, edited or replaced entry back as active')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the active entries, best match first')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print the active entries, to move them to another machine, folder or person')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory')
            [CompletionResult]::new('where', 'where', [CompletionResultType]::ParameterValue, 'Print the workspace''s root and key, and where its stores are')
            [CompletionResult]::new('off', 'off', [CompletionResultType]::ParameterValue, 'Turn memory off for the workspace: every hook for it does nothing and prints nothing')
            [CompletionResult]::new('on', 'on', [CompletionResultType]::ParameterValue, 'Turn memory back on for the workspace')
            [CompletionResult]::new('hot-state', 'hot-state', [CompletionResultType]::ParameterValue, 'Print a session''s hot state: its active files, open errors, recent decisions and pending memories')
            [CompletionResult]::new('share', 'share', [CompletionResultType]::ParameterValue, 'Copy entries of your memory into team memory, the repository''s .ocmem/memory.md')
            [CompletionResult]::new('unshare', 'unshare', [CompletionResultType]::ParameterValue, 'Take an entry out of team memory, keeping it in your own')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ocmem;memory;list' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only entries of this type')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Only entries from this source')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every entry, with the reason those not shown are not')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Team memory instead: the repository''s .ocmem/memory.md, shared through git')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;show' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Team memory instead: the repository''s .ocmem/memory.md, shared through git')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;add' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'feedback, project, decision or reference [default: read from the text]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent wrote TEXT (the agent''s memory tools pass this): it cannot be forced past the gate')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Keep TEXT even when the gate that every memory passes refuses it (a raw error, a commit hash, a file list, session narration)')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Team memory instead: the repository''s .ocmem/memory.md, shared through git')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;edit' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;forget' {
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'The active entry whose text (or rationale) holds every word of TEXT')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'With --match: forget every entry that matches')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;restore' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;search' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many results')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Team memory instead: the repository''s .ocmem/memory.md, shared through git')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;export' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (the store''s format) or markdown; --json is --format json')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--agents-md', '--agents-md', [CompletionResultType]::ParameterName, 'Write the team memory into a marked section of AGENTS.md at the repository''s root (created if absent; the rest of the file is kept byte for byte), for agents without ocmem')
            [CompletionResult]::new('--claude-md', '--claude-md', [CompletionResultType]::ParameterName, 'The same, into CLAUDE.md')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;import' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;where' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ocmem;memory;off' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;on' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ocmem;memory;hot-state' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;share' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;unshare' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;memory;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries: id, type, source, age, whether the block shows them, and their text')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry whole, with its history: what it superseded, what superseded it, when, why')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add TEXT to memory, as source `manual`')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace an entry''s text: TEXT, or what you write in $VISUAL or $EDITOR')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget an entry: by ID, or the one whose text holds every word of --match')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring a forgotten, edited or replaced entry back as active')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the active entries, best match first')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print the active entries, to move them to another machine, folder or person')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory')
            [CompletionResult]::new('where', 'where', [CompletionResultType]::ParameterValue, 'Print the workspace''s root and key, and where its stores are')
            [CompletionResult]::new('off', 'off', [CompletionResultType]::ParameterValue, 'Turn memory off for the workspace: every hook for it does nothing and prints nothing')
            [CompletionResult]::new('on', 'on', [CompletionResultType]::ParameterValue, 'Turn memory back on for the workspace')
            [CompletionResult]::new('hot-state', 'hot-state', [CompletionResultType]::ParameterValue, 'Print a session''s hot state: its active files, open errors, recent decisions and pending memories')
            [CompletionResult]::new('share', 'share', [CompletionResultType]::ParameterValue, 'Copy entries of your memory into team memory, the repository''s .ocmem/memory.md')
            [CompletionResult]::new('unshare', 'unshare', [CompletionResultType]::ParameterValue, 'Take an entry out of team memory, keeping it in your own')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ocmem;memory;help;list' {
            break
        }
        'ocmem;memory;help;show' {
            break
        }
        'ocmem;memory;help;add' {
            break
        }
        'ocmem;memory;help;edit' {
            break
        }
        'ocmem;memory;help;forget' {
            break
        }
        'ocmem;memory;help;restore' {
            break
        }
        'ocmem;memory;help;search' {
            break
        }
        'ocmem;memory;help;export' {
            break
        }
        'ocmem;memory;help;import' {
            break
        }
        'ocmem;memory;help;where' {
            break
        }
        'ocmem;memory;help;off' {
            break
        }
        'ocmem;memory;help;on' {
            break
        }
        'ocmem;memory;help;hot-state' {
            break
        }
        'ocmem;memory;help;share' {
            break
        }
        'ocmem;memory;help;unshare' {
            break
        }
        'ocmem;memory;help;help' {
            break
        }
        'ocmem;remember' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'feedback, project, decision or reference [default: read from the text]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent wrote TEXT (the agent''s memory tools pass this): it cannot be forced past the gate')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Keep TEXT even when the gate that every memory passes refuses it (a raw error, a commit hash, a file list, session narration)')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Team memory instead: the repository''s .ocmem/memory.md, shared through git')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ocmem;forget' {
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'The active entry whose text (or rationale) holds every word of TEXT')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'With --match: forget every entry that matches')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of text')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ocmem;mcp' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;sessions' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the digests as a JSON array instead of a listing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;handoff' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session''s id (as the host names it) [default: the latest]')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Also write the note to PATH')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace that DIR belongs to [default: the current directory''s]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --write: replace PATH even when it changed since ocmem last wrote it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;idle' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;explain' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Data directory holding the stores [env: OCMEM_DATA_DIR]')
            [CompletionResult]::new('--candidate', '--candidate', [CompletionResultType]::ParameterName, 'Read the text as a memory candidate line (`- [type] text`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the report as one JSON object')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ocmem;help' {
            [CompletionResult]::new('tool-after', 'tool-after', [CompletionResultType]::ParameterValue, 'Record a finished tool call in the session''s hot state')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the memory block for the system prompt, and capture explicit memories')
            [CompletionResult]::new('compact', 'compact', [CompletionResultType]::ParameterValue, 'Print what to add to the compaction prompt')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'File the memory candidates of a finished compaction')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors')
            [CompletionResult]::new('baseline', 'baseline', [CompletionResultType]::ParameterValue, 'Audit every store under the data directory, read-only')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Run as a host''s hook: one entry point for every event of a host that runs command hooks')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Install ocmem into a host: OpenCode''s plugin, or Claude Code''s hooks')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check that memory works, and say how to fix what does not')
            [CompletionResult]::new('memory', 'memory', [CompletionResultType]::ParameterValue, 'See and steer what ocmem remembers for a workspace')
            [CompletionResult]::new('remember', 'remember', [CompletionResultType]::ParameterValue, 'Remember TEXT in this workspace''s memory (short for `ocmem memory add`)')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget an entry of this workspace''s memory (short for `ocmem memory forget`)')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the agent''s memory tools over the Model Context Protocol, on stdin and stdout')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'List the digests of a workspace''s past sessions, the latest first')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Print a handoff note for the latest (or a given) session of a workspace')
            [CompletionResult]::new('idle', 'idle', [CompletionResultType]::ParameterValue, 'Bring a session''s digest up to date when it goes idle')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show what ocmem makes of a text, and why')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ocmem;help;tool-after' {
            break
        }
        'ocmem;help;render' {
            break
        }
        'ocmem;help;compact' {
            break
        }
        'ocmem;help;promote' {
            break
        }
        'ocmem;help;gc' {
            break
        }
        'ocmem;help;baseline' {
            break
        }
        'ocmem;help;replay' {
            break
        }
        'ocmem;help;hook' {
            break
        }
        'ocmem;help;init' {
            break
        }
        'ocmem;help;doctor' {
            break
        }
        'ocmem;help;memory' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries: id, type, source, age, whether the block shows them, and their text')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry whole, with its history: what it superseded, what superseded it, when, why')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add TEXT to memory, as source `manual`')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace an entry''s text: TEXT, or what you write in $VISUAL or $EDITOR')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget an entry: by ID, or the one whose text holds every word of --match')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring a forgotten, edited or replaced entry back as active')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the active entries, best match first')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print the active entries, to move them to another machine, folder or person')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory')
            [CompletionResult]::new('where', 'where', [CompletionResultType]::ParameterValue, 'Print the workspace''s root and key, and where its stores are')
            [CompletionResult]::new('off', 'off', [CompletionResultType]::ParameterValue, 'Turn memory off for the workspace: every hook for it does nothing and prints nothing')
            [CompletionResult]::new('on', 'on', [CompletionResultType]::ParameterValue, 'Turn memory back on for the workspace')
            [CompletionResult]::new('hot-state', 'hot-state', [CompletionResultType]::ParameterValue, 'Print a session''s hot state: its active files, open errors, recent decisions and pending memories')
            [CompletionResult]::new('share', 'share', [CompletionResultType]::ParameterValue, 'Copy entries of your memory into team memory, the repository''s .ocmem/memory.md')
            [CompletionResult]::new('unshare', 'unshare', [CompletionResultType]::ParameterValue, 'Take an entry out of team memory, keeping it in your own')
            break
        }
        'ocmem;help;memory;list' {
            break
        }
        'ocmem;help;memory;show' {
            break
        }
        'ocmem;help;memory;add' {
            break
        }
        'ocmem;help;memory;edit' {
            break
        }
        'ocmem;help;memory;forget' {
            break
        }
        'ocmem;help;memory;restore' {
            break
        }
        'ocmem;help;memory;search' {
            break
        }
        'ocmem;help;memory;export' {
            break
        }
        'ocmem;help;memory;import' {
            break
        }
        'ocmem;help;memory;where' {
            break
        }
        'ocmem;help;memory;off' {
            break
        }
        'ocmem;help;memory;on' {
            break
        }
        'ocmem;help;memory;hot-state' {
            break
        }
        'ocmem;help;memory;share' {
            break
        }
        'ocmem;help;memory;unshare' {
            break
        }
        'ocmem;help;remember' {
            break
        }
        'ocmem;help;forget' {
            break
        }
        'ocmem;help;mcp' {
            break
        }
        'ocmem;help;sessions' {
            break
        }
        'ocmem;help;handoff' {
            break
        }
        'ocmem;help;idle' {
            break
        }
        'ocmem;help;explain' {
            break
        }
        'ocmem;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
