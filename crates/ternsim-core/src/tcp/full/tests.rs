//! Hand-worked exchanges of two FullTcp agents.
