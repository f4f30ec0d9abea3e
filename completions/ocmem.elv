
use builtin;
use str;

set edit:completion:arg-completer[ocmem] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ocmem'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ocmem'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand tool-after 'Record a finished tool call in the session''s hot state'
            cand render 'Print the memory block for the system prompt, and capture explicit memories'
            cand compact 'Print what to add to the compaction prompt'
            cand promote 'File the memory candidates of a finished compaction'
            cand gc 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors'
            cand baseline 'Audit every store under the data directory, read-only'
            cand replay 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see'
            cand hook 'Run as a host''s hook: one entry point for every event of a host that runs command hooks'
            cand init 'Install ocmem into a host: OpenCode''s plugin, or Claude Code''s hooks'
            cand doctor 'Check that memory works, and say how to fix what does not'
            cand memory 'See and steer what ocmem remembers for a workspace'
            cand remember 'Remember TEXT in this workspace''s memory (short for `ocmem memory add`)'
            cand forget 'Forget an entry of this workspace''s memory (short for `ocmem memory forget`)'
            cand mcp 'Serve the agent''s memory tools over the Model Context Protocol, on stdin and stdout'
            cand sessions 'List the digests of a workspace''s past sessions, the latest first'
            cand handoff 'Print a handoff note for the latest (or a given) session of a workspace'
            cand idle 'Bring a session''s digest up to date when it goes idle'
            cand explain 'Show what ocmem makes of a text, and why'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ocmem;tool-after'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON line describing what changed'
            cand --prune 'Also print the output cut down for the model when it is long (bash, grep, glob and list only), its whole text saved under the data directory; nothing when it stays as it is. OCMEM_PRUNE=0 turns it off'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;render'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print {"workspace": …, "session": …} as one JSON line instead'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;compact'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;promote'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print the accepted and rejected candidates, with the reason for each, as one JSON line'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;gc'= {
            cand --older-than 'With --sweep: remove sessions idle longer than DAYS (1-365) [env: OCMEM_TTL_DAYS] [default: 30]'
            cand --workspace 'Only the workspace that DIR belongs to'
            cand --restore-archived 'Bring the archived workspace memory entry ID back as active'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --sweep 'Remove idle sessions, old temp files, surplus quarantined copies, stale locks, idle host markers, old saved tool outputs and empty workspace directories'
            cand --false-positives 'Remove stored open errors and verified commands that today''s rules would not record (backed up first)'
            cand --dry-run 'Show what would be removed, and change nothing'
            cand --json 'Print the report as one JSON document'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;baseline'= {
            cand --workspace 'Only the workspace that DIR belongs to'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print a JSON document with a stable schema (see the `schema` field) instead of a table'
            cand --check 'Exit 1 when a suspected false positive, stored secret, corrupt file or newer-version store exists, saying why'
            cand --team 'Audit the team memory file (.ocmem/memory.md) of the repository of --workspace DIR or of the current directory instead: conflict markers, malformed lines, duplicates, and entries holding a secret or an instruction, one `FILE:LINE: reason` line each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;replay'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;hook'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;init'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --project 'For the project of the current directory (its git worktree''s top level), the default'
            cand --user 'For the user: every project'
            cand --print 'Show what would be written, and change nothing'
            cand --uninstall 'Take ocmem out of the host again'
            cand --mcp 'Register the MCP server of the agent''s memory tools (`ocmem mcp`), not the hooks'
            cand --compact-prompt 'Codex only: also replace its compaction prompt (`compact_prompt`) with ocmem''s, which asks for memory candidates'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;doctor'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print a JSON document with a stable schema (see the `schema` field) instead of a report'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'List the entries: id, type, source, age, whether the block shows them, and their text'
            cand show 'Show one entry whole, with its history: what it superseded, what superseded it, when, why'
            cand add 'Add TEXT to memory, as source `manual`'
            cand edit 'Replace an entry''s text: TEXT, or what you write in $VISUAL or $EDITOR'
            cand forget 'Forget an entry: by ID, or the one whose text holds every word of --match'
            cand restore 'Bring a forgotten, edited or replaced entry back as active'
            cand search 'Search the active entries, best match first'
            cand export 'Print the active entries, to move them to another machine, folder or person'
            cand import 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory'
            cand where 'Print the workspace''s root and key, and where its stores are'
            cand off 'Turn memory off for the workspace: every hook for it does nothing and prints nothing'
            cand on 'Turn memory back on for the workspace'
            cand hot-state 'Print a session''s hot state: its active files, open errors, recent decisions and pending memories'
            cand share 'Copy entries of your memory into team memory, the repository''s .ocmem/memory.md'
            cand unshare 'Take an entry out of team memory, keeping it in your own'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ocmem;memory;list'= {
            cand --type 'Only entries of this type'
            cand --source 'Only entries from this source'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --all 'Every entry, with the reason those not shown are not'
            cand --team 'Team memory instead: the repository''s .ocmem/memory.md, shared through git'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;show'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --team 'Team memory instead: the repository''s .ocmem/memory.md, shared through git'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;add'= {
            cand --type 'feedback, project, decision or reference [default: read from the text]'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --agent 'The agent wrote TEXT (the agent''s memory tools pass this): it cannot be forced past the gate'
            cand --force 'Keep TEXT even when the gate that every memory passes refuses it (a raw error, a commit hash, a file list, session narration)'
            cand --team 'Team memory instead: the repository''s .ocmem/memory.md, shared through git'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;edit'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;forget'= {
            cand --match 'The active entry whose text (or rationale) holds every word of TEXT'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --all 'With --match: forget every entry that matches'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;restore'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;search'= {
            cand --limit 'At most this many results'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --team 'Team memory instead: the repository''s .ocmem/memory.md, shared through git'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;export'= {
            cand --format 'json (the store''s format) or markdown; --json is --format json'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --agents-md 'Write the team memory into a marked section of AGENTS.md at the repository''s root (created if absent; the rest of the file is kept byte for byte), for agents without ocmem'
            cand --claude-md 'The same, into CLAUDE.md'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;import'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;where'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ocmem;memory;off'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;on'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ocmem;memory;hot-state'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;share'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;unshare'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;memory;help'= {
            cand list 'List the entries: id, type, source, age, whether the block shows them, and their text'
            cand show 'Show one entry whole, with its history: what it superseded, what superseded it, when, why'
            cand add 'Add TEXT to memory, as source `manual`'
            cand edit 'Replace an entry''s text: TEXT, or what you write in $VISUAL or $EDITOR'
            cand forget 'Forget an entry: by ID, or the one whose text holds every word of --match'
            cand restore 'Bring a forgotten, edited or replaced entry back as active'
            cand search 'Search the active entries, best match first'
            cand export 'Print the active entries, to move them to another machine, folder or person'
            cand import 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory'
            cand where 'Print the workspace''s root and key, and where its stores are'
            cand off 'Turn memory off for the workspace: every hook for it does nothing and prints nothing'
            cand on 'Turn memory back on for the workspace'
            cand hot-state 'Print a session''s hot state: its active files, open errors, recent decisions and pending memories'
            cand share 'Copy entries of your memory into team memory, the repository''s .ocmem/memory.md'
            cand unshare 'Take an entry out of team memory, keeping it in your own'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ocmem;memory;help;list'= {
        }
        &'ocmem;memory;help;show'= {
        }
        &'ocmem;memory;help;add'= {
        }
        &'ocmem;memory;help;edit'= {
        }
        &'ocmem;memory;help;forget'= {
        }
        &'ocmem;memory;help;restore'= {
        }
        &'ocmem;memory;help;search'= {
        }
        &'ocmem;memory;help;export'= {
        }
        &'ocmem;memory;help;import'= {
        }
        &'ocmem;memory;help;where'= {
        }
        &'ocmem;memory;help;off'= {
        }
        &'ocmem;memory;help;on'= {
        }
        &'ocmem;memory;help;hot-state'= {
        }
        &'ocmem;memory;help;share'= {
        }
        &'ocmem;memory;help;unshare'= {
        }
        &'ocmem;memory;help;help'= {
        }
        &'ocmem;remember'= {
            cand --type 'feedback, project, decision or reference [default: read from the text]'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --agent 'The agent wrote TEXT (the agent''s memory tools pass this): it cannot be forced past the gate'
            cand --force 'Keep TEXT even when the gate that every memory passes refuses it (a raw error, a commit hash, a file list, session narration)'
            cand --team 'Team memory instead: the repository''s .ocmem/memory.md, shared through git'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ocmem;forget'= {
            cand --match 'The active entry whose text (or rationale) holds every word of TEXT'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --all 'With --match: forget every entry that matches'
            cand --json 'Print one JSON document instead of text'
            cand --user 'Act on user memory, the preferences that follow you across projects, instead of the workspace''s'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ocmem;mcp'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;sessions'= {
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --json 'Print the digests as a JSON array instead of a listing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;handoff'= {
            cand --session 'The session''s id (as the host names it) [default: the latest]'
            cand --write 'Also write the note to PATH'
            cand --workspace 'The workspace that DIR belongs to [default: the current directory''s]'
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --force 'With --write: replace PATH even when it changed since ocmem last wrote it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;idle'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;explain'= {
            cand --data-dir 'Data directory holding the stores [env: OCMEM_DATA_DIR]'
            cand --candidate 'Read the text as a memory candidate line (`- [type] text`)'
            cand --json 'Print the report as one JSON object'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ocmem;help'= {
            cand tool-after 'Record a finished tool call in the session''s hot state'
            cand render 'Print the memory block for the system prompt, and capture explicit memories'
            cand compact 'Print what to add to the compaction prompt'
            cand promote 'File the memory candidates of a finished compaction'
            cand gc 'Remove what is dead: deleted sessions, idle sessions, orphans and false-positive errors'
            cand baseline 'Audit every store under the data directory, read-only'
            cand replay 'Feed a recorded OpenCode hook log through ocmem and show what the agent would see'
            cand hook 'Run as a host''s hook: one entry point for every event of a host that runs command hooks'
            cand init 'Install ocmem into a host: OpenCode''s plugin, or Claude Code''s hooks'
            cand doctor 'Check that memory works, and say how to fix what does not'
            cand memory 'See and steer what ocmem remembers for a workspace'
            cand remember 'Remember TEXT in this workspace''s memory (short for `ocmem memory add`)'
            cand forget 'Forget an entry of this workspace''s memory (short for `ocmem memory forget`)'
            cand mcp 'Serve the agent''s memory tools over the Model Context Protocol, on stdin and stdout'
            cand sessions 'List the digests of a workspace''s past sessions, the latest first'
            cand handoff 'Print a handoff note for the latest (or a given) session of a workspace'
            cand idle 'Bring a session''s digest up to date when it goes idle'
            cand explain 'Show what ocmem makes of a text, and why'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ocmem;help;tool-after'= {
        }
        &'ocmem;help;render'= {
        }
        &'ocmem;help;compact'= {
        }
        &'ocmem;help;promote'= {
        }
        &'ocmem;help;gc'= {
        }
        &'ocmem;help;baseline'= {
        }
        &'ocmem;help;replay'= {
        }
        &'ocmem;help;hook'= {
        }
        &'ocmem;help;init'= {
        }
        &'ocmem;help;doctor'= {
        }
        &'ocmem;help;memory'= {
            cand list 'List the entries: id, type, source, age, whether the block shows them, and their text'
            cand show 'Show one entry whole, with its history: what it superseded, what superseded it, when, why'
            cand add 'Add TEXT to memory, as source `manual`'
            cand edit 'Replace an entry''s text: TEXT, or what you write in $VISUAL or $EDITOR'
            cand forget 'Forget an entry: by ID, or the one whose text holds every word of --match'
            cand restore 'Bring a forgotten, edited or replaced entry back as active'
            cand search 'Search the active entries, best match first'
            cand export 'Print the active entries, to move them to another machine, folder or person'
            cand import 'Merge the entries of FILE (from `export`, or a workspace-memory.json) into memory'
            cand where 'Print the workspace''s root and key, and where its stores are'
            cand off 'Turn memory off for the workspace: every hook for it does nothing and prints nothing'
            cand on 'Turn memory back on for the workspace'
            cand hot-state 'Print a session''s hot state: its active files, open errors, recent decisions and pending memories'
            cand share 'Copy entries of your memory into team memory, the repository''s .ocmem/memory.md'
            cand unshare 'Take an entry out of team memory, keeping it in your own'
        }
        &'ocmem;help;memory;list'= {
        }
        &'ocmem;help;memory;show'= {
        }
        &'ocmem;help;memory;add'= {
        }
        &'ocmem;help;memory;edit'= {
        }
        &'ocmem;help;memory;forget'= {
        }
        &'ocmem;help;memory;restore'= {
        }
        &'ocmem;help;memory;search'= {
        }
        &'ocmem;help;memory;export'= {
        }
        &'ocmem;help;memory;import'= {
        }
        &'ocmem;help;memory;where'= {
        }
        &'ocmem;help;memory;off'= {
        }
        &'ocmem;help;memory;on'= {
        }
        &'ocmem;help;memory;hot-state'= {
        }
        &'ocmem;help;memory;share'= {
        }
        &'ocmem;help;memory;unshare'= {
        }
        &'ocmem;help;remember'= {
        }
        &'ocmem;help;forget'= {
        }
        &'ocmem;help;mcp'= {
        }
        &'ocmem;help;sessions'= {
        }
        &'ocmem;help;handoff'= {
        }
        &'ocmem;help;idle'= {
        }
        &'ocmem;help;explain'= {
        }
        &'ocmem;help;help'= {
        }
    ]
    $completions[$command]
}
