//! Columnar trace tables: one typed vector per column. Rows are appended through the typed
//! trace declarations in `super` (`trace_tables!`), never positionally.
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
