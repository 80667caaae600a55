//! The bindings' Rust side, natively: positions parsed as the library's 7x6
//! `parse_pos` parses them, sizes checked with the command line's messages, an
//! engine on its size with its book.

use c4solver::{Size, SizeError};
use c4solver_wasm::{Engine, built_sizes, check_size, every_size, parse_pos};

/// Every kind of line, parsed here and by the library's 7x6 `parse_pos`: the
/// same moves, or the same message.
#[test]
fn positions_are_parsed_as_the_library_parses_them() {
    let lines = [
        "", "4455", " 4455 \r", "4455\t", "448", "8", "4444444", "1212121", "44a", "44 18", "44 x",
        "44 +", "44 99", "44 0", "44 -3 5", "44 1 2 3", "x 18", "44\r\r",
    ];
    for text in lines {
        let ours = parse_pos(Size::STANDARD, text).map(|(m, p)| (m, p.key()));
        let library = c4solver::sized::Query::<7, 6, u64>::parse_pos(text.as_bytes())
            .map(|q| (q.moves, u128::from(q.position.key())))
            .map_err(|e| e.to_string());
        assert_eq!(ours, library, "{text:?}");
    }
}

#[test]
fn sizes_are_checked_with_the_command_lines_messages() {
    assert_eq!(check_size("7x6"), Ok(true));
    assert_eq!(
        check_size("9x9").unwrap_err(),
        SizeError::NotWide(Size {
            width: 9,
            height: 9
        })
        .to_string()
    );
    assert!(
        check_size("seven")
            .unwrap_err()
            .contains("expected WIDTHxHEIGHT")
    );
    assert!(check_size("3x6").unwrap_err().contains("too small"));
    assert_eq!(every_size().len(), 53);
    assert!(every_size().iter().any(|s| s == "7x6"));
    let built: Vec<String> = c4solver::Size::BUILT
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(built_sizes(), built);
    if built == ["7x6"] {
        assert_eq!(check_size("8x8"), Ok(false));
        let refused = Engine::new(1, true, Some("8x8".into())).err().unwrap();
        assert!(
            refused.contains("is not built into this program"),
            "{refused}"
        );
    }
}

#[test]
fn an_engine_answers_on_its_size_from_its_book() {
    let mut engine = Engine::new(1, true, Some(" 7X6 ".into())).unwrap();
    assert_eq!(engine.size(), "7x6");
    assert_eq!(engine.book_depth(), Some(8));
    let refused = engine.analyze("44 18", false, false).unwrap_err();
    assert_eq!(
        refused,
        "pos holds moves only, found a second field in \"44 18\""
    );
    assert_eq!(
        engine.score("8", false).unwrap_err(),
        "column 8 is out of range (1..=7) at move 1"
    );
}
