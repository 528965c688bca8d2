//! The book an empty `BookFile` means: ElephantEye's convention, a
//! `BOOK.DAT` beside the engine's executable, used with no option set (or
//! else an `.obk` there, the first by name); without one, the book built
//! into the engine. The book found is said in an `info string` after the
//! first handshake, since nothing may come before it.

use super::state::{BookNote, Session};
use jiangjun_engine::play::book::Book;
use std::path::{Path, PathBuf};

/// The names ElephantEye's book goes by beside the engine (the first on a
/// file system that keeps case).
const BOOK_DAT: [&str; 2] = ["BOOK.DAT", "book.dat"];

/// The book file beside the executable in `dir`, if there is one.
pub(super) fn book_beside(dir: &Path) -> Option<PathBuf> {
    for name in BOOK_DAT {
        let path = dir.join(name);
        if path.is_file() {
            return Some(path);
        }
    }
    let mut obk: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("obk")))
        .collect();
    obk.sort();
    obk.into_iter().next()
}

/// The folder of the running executable, if the system says.
fn executable_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.parent().map(Path::to_path_buf)
}

impl Session {
    /// Load the book an empty `BookFile` means (see the module), and return
    /// what to say of it: nothing for the built-in book when there is no
    /// file beside the engine.
    pub(super) fn load_default_book(&mut self) -> Option<BookNote> {
        let found = executable_dir().and_then(|d| book_beside(&d));
        let Some(path) = found else {
            self.engine.set_book(Book::default_book());
            return None;
        };
        match Book::load(&path) {
            Ok(book) => {
                let text = format!(
                    "book: {} beside the engine, {}, {} records",
                    book.format().name(),
                    path.display(),
                    book.len()
                );
                self.engine.set_book(book);
                Some(BookNote {
                    text,
                    path,
                    error: false,
                })
            }
            Err(e) => {
                self.engine.set_book(Book::default_book());
                Some(BookNote {
                    text: format!("book beside the engine: {e}; using the built-in book"),
                    path,
                    error: true,
                })
            }
        }
    }

    /// Say what [`Session::load_default_book`] found, if anything.
    pub(super) fn say_book_note(&self, note: &BookNote) {
        if note.error {
            self.out.error_naming(&note.text, &note.path);
        } else {
            self.out.info_string_naming(&note.text, &note.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_dat_first_then_the_first_obk_by_name() {
        let dir = std::env::temp_dir().join(format!("jj-beside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(book_beside(&dir), None);
        std::fs::write(dir.join("b.OBK"), b"").unwrap();
        std::fs::write(dir.join("a.obk"), b"").unwrap();
        std::fs::create_dir_all(dir.join("0.obk")).unwrap();
        assert_eq!(book_beside(&dir), Some(dir.join("a.obk")));
        std::fs::write(dir.join("BOOK.DAT"), b"").unwrap();
        assert_eq!(book_beside(&dir), Some(dir.join("BOOK.DAT")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
