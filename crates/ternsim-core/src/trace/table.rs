//! Columnar trace tables: one typed vector per column, appended row by row.
//!
//! Tables are plain data that cross to Python as whole columns (never per row), where they
//! become DataFrames and Parquet files.

/// One column's values.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    F64(Vec<f64>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    Str(Vec<String>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::F64(v) => v.len(),
            Column::I64(v) => v.len(),
            Column::U8(v) => v.len(),
            Column::Str(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A value for one cell, used when appending a row.
#[derive(Clone, Copy, Debug)]
pub enum Cell<'a> {
    F(f64),
    I(i64),
    B(bool),
    S(&'a str),
}

/// A named table of equally long columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: &'static str,
    pub columns: Vec<(&'static str, Column)>,
}

/// Column types, for declaring a table.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    F64,
    I64,
    U8,
    Str,
}

impl Table {
    pub fn new(name: &'static str, schema: &[(&'static str, Kind)]) -> Self {
        let columns = schema
            .iter()
            .map(|(n, k)| {
                let c = match k {
                    Kind::F64 => Column::F64(Vec::new()),
                    Kind::I64 => Column::I64(Vec::new()),
                    Kind::U8 => Column::U8(Vec::new()),
                    Kind::Str => Column::Str(Vec::new()),
                };
                (*n, c)
            })
            .collect();
        Table { name, columns }
    }

    /// Appends one row; the cells must match the schema in order and kind.
    pub fn push(&mut self, row: &[Cell<'_>]) {
        debug_assert_eq!(row.len(), self.columns.len());
        for ((_, col), cell) in self.columns.iter_mut().zip(row) {
            match (col, cell) {
                (Column::F64(v), Cell::F(x)) => v.push(*x),
                (Column::I64(v), Cell::I(x)) => v.push(*x),
                (Column::U8(v), Cell::B(x)) => v.push(u8::from(*x)),
                (Column::Str(v), Cell::S(x)) => v.push((*x).to_string()),
                (c, x) => panic!("trace cell {x:?} does not fit column {c:?}"),
            }
        }
    }

    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |(_, c)| c.len())
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_append_to_typed_columns() {
        let mut t = Table::new("x", &[("t", Kind::F64), ("n", Kind::I64), ("r", Kind::U8)]);
        t.push(&[Cell::F(0.5), Cell::I(3), Cell::B(true)]);
        t.push(&[Cell::F(1.5), Cell::I(-1), Cell::B(false)]);
        assert_eq!(t.rows(), 2);
        assert_eq!(t.column("n"), Some(&Column::I64(vec![3, -1])));
        assert_eq!(t.column("r"), Some(&Column::U8(vec![1, 0])));
    }
}
