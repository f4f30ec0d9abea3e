use super::*;

fn entry(kind: MemoryType, text: &str, rationale: Option<&str>) -> TeamEntry {
    TeamEntry::new(kind, text, rationale)
}

fn sample() -> Vec<TeamEntry> {
    vec![
        entry(
            MemoryType::Decision,
            "Use pnpm, not npm",
            Some("one lockfile for the monorepo"),
        ),
        entry(
            MemoryType::Feedback,
            "Run `make lint` before every push",
            None,
        ),
        entry(
            MemoryType::Project,
            "The API server lives in services/api",
            None,
        ),
        entry(MemoryType::Decision, "Dates are stored as UTC", None),
    ]
}

#[test]
fn ids_are_eight_hex_digits_of_the_canonical_text() {
    let id = new_id(MemoryType::Project, "Tests run with `cargo nextest run`");
    assert_eq!(id.len(), ID_LEN);
    assert!(is_id(&id), "{id}");
    assert_eq!(
        id,
        new_id(MemoryType::Project, "tests  run with cargo nextest run!")
    );
    assert_ne!(
        id,
        new_id(MemoryType::Decision, "Tests run with `cargo nextest run`")
    );
}

#[test]
fn rendering_then_parsing_gives_the_entries_back() {
    let entries = sample();
    let text = render(&entries);
    let read = parse(&text);
    assert_eq!(read.problems, vec![]);
    assert_eq!(read.entries.len(), entries.len());
    for original in &entries {
        let found = read.entries.iter().find(|e| e.id == original.id).unwrap();
        assert_eq!(
            (found.kind, &found.text, &found.rationale),
            (original.kind, &original.text, &original.rationale)
        );
        assert!(text
            .lines()
            .nth(found.line - 1)
            .unwrap()
            .contains(&found.id));
    }
    assert_eq!(render(&read.entries), text, "rendering is a fixed point");
}

#[test]
fn the_file_has_every_section_and_bullets_sorted_by_id() {
    let text = render(&sample());
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        ["## Feedback", "## Project", "## Decisions", "## References"]
    );
    let decisions: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "## Decisions")
        .take_while(|l| *l != "## References")
        .filter(|l| l.starts_with("- "))
        .collect();
    assert_eq!(decisions.len(), 2);
    let mut sorted = decisions.clone();
    sorted.sort_by_key(|l| split_id(l).1.unwrap().to_string());
    assert_eq!(decisions, sorted);
    assert!(!text.contains("20"), "no dates or counters: {text}");
}

#[test]
fn the_order_of_entries_given_does_not_change_the_file() {
    let mut entries = sample();
    let text = render(&entries);
    entries.reverse();
    assert_eq!(render(&entries), text);
}

#[test]
fn hand_written_bullets_without_ids_get_the_id_of_their_text() {
    let read = parse("# Team memory\n\n## decision\n* Prefer small PRs Why: easier review\n");
    assert_eq!(read.problems, vec![]);
    let got = &read.entries[0];
    assert_eq!(got.kind, MemoryType::Decision);
    assert_eq!(got.text, "Prefer small PRs");
    assert_eq!(got.rationale.as_deref(), Some("easier review"));
    assert_eq!(got.id, new_id(MemoryType::Decision, "Prefer small PRs"));
}

#[test]
fn an_edited_text_keeps_its_id() {
    let mut entries = sample();
    let id = entries[1].id.clone();
    let edited = render(&entries).replace("before every push", "before every commit");
    let read = parse(&edited);
    let found = read.entries.iter().find(|e| e.id == id).unwrap();
    assert_eq!(found.text, "Run `make lint` before every commit");
    entries[1].text = found.text.clone();
    assert_eq!(render(&read.entries), render(&entries));
}

#[test]
fn conflict_markers_are_problems_and_both_sides_are_read() {
    let text = "# Team memory\n\n## Project\n\n<<<<<<< HEAD\n- Node 22 is required <!-- ocmem:0000aaaa -->\n=======\n- Node 20 is required <!-- ocmem:0000aaaa -->\n- Docs live in docs/ <!-- ocmem:0000bbbb -->\n>>>>>>> feature\n";
    let read = parse(text);
    let kinds: Vec<(usize, ProblemKind)> = read.problems.iter().map(|p| (p.line, p.kind)).collect();
    assert_eq!(
        kinds,
        [
            (5, ProblemKind::ConflictMarker),
            (7, ProblemKind::ConflictMarker),
            (8, ProblemKind::DuplicateId),
            (10, ProblemKind::ConflictMarker),
        ]
    );
    let texts: Vec<&str> = read.entries.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["Node 22 is required", "Docs live in docs/"]);
}

#[test]
fn unreadable_lines_are_problems_with_their_line_numbers() {
    let text = "# Team memory\n- before any section\n\n## Feedback\nsome prose\n- <!-- ocmem:12345678 -->\n- Keep it short <!-- ocmem:XYZ -->\n- keep it short!\n\n## Secrets\n- skipped\n<!-- a comment\nover lines -->\n## project\n- Fine\n";
    let read = parse(text);
    let kinds: Vec<(usize, ProblemKind)> = read.problems.iter().map(|p| (p.line, p.kind)).collect();
    assert_eq!(
        kinds,
        [
            (2, ProblemKind::OutsideSection),
            (5, ProblemKind::Unreadable),
            (6, ProblemKind::EmptyEntry),
            (7, ProblemKind::BadId),
            (8, ProblemKind::DuplicateEntry),
            (10, ProblemKind::UnknownSection),
        ]
    );
    let texts: Vec<&str> = read.entries.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["Keep it short", "Fine"]);
    assert_eq!(
        read.entries[0].id,
        new_id(MemoryType::Feedback, "Keep it short")
    );
}

#[test]
fn an_empty_or_missing_file_has_no_entries_and_no_problems() {
    assert_eq!(parse(""), TeamMemory::default());
    assert_eq!(parse(&render(&[])), TeamMemory::default());
}
