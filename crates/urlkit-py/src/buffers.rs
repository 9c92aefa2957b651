//! The buffers of big output columns. Writing a column of tens of megabytes into fresh
//! memory costs the kernel a page fault and a page cleared for every 4 KiB, about a third
//! of the time of decoding it: the last few big buffers of each kind that Arrow releases
//! are kept for the next column (batch after batch, each column is about as big as the one
//! before; a result with diagnostics has several columns of each kind), so that a run of
//! columns pays for its memory once. (Asking for transparent huge
//! pages instead made the first column slower, by the kernel's compaction, and the later
//! ones no faster than a kept buffer.)

use arrow_buffer::{ArrowNativeType, Buffer};
use std::ptr::NonNull;
use std::sync::Mutex;

/// From this many bytes on a buffer is big.
const BIG: usize = 1 << 20;

/// The last big buffers of one kind released (the latest last), kept for the next column:
/// as many as one result takes of that kind, so that memory kept between calls stays
/// within about twice one result's.
pub struct Spare<T> {
    spares: Mutex<Vec<Vec<T>>>,
    /// How many are kept at most.
    kept: usize,
}

/// Output bytes, and the charset names of a result with diagnostics.
pub static BYTES: Spare<u8> = Spare::keeping(2);
/// 32-bit row offsets: of the output, and with diagnostics of the charset, findings and
/// counts columns.
pub static NARROW_OFFSETS: Spare<i32> = Spare::keeping(4);
/// 64-bit row offsets.
pub static WIDE_OFFSETS: Spare<i64> = Spare::keeping(1);
/// Counts, one a row.
pub static COUNTS: Spare<u64> = Spare::keeping(1);

impl<T> Spare<T> {
    const fn keeping(kept: usize) -> Self {
        Spare {
            spares: Mutex::new(Vec::new()),
            kept,
        }
    }
}

impl<T: ArrowNativeType + std::panic::RefUnwindSafe> Spare<T> {
    /// An empty vector with room for `capacity` items: the smallest spare one that fits
    /// without wasting more than half of itself, else a new one.
    pub fn vec(&'static self, capacity: usize) -> Vec<T> {
        if capacity * size_of::<T>() >= BIG {
            let fits = |s: &Vec<T>| (capacity..=2 * capacity).contains(&s.capacity());
            let spare = self.spares.lock().ok().and_then(|mut spares| {
                let best = (0..spares.len())
                    .filter(|&i| fits(&spares[i]))
                    .min_by_key(|&i| spares[i].capacity())?;
                Some(spares.remove(best))
            });
            if let Some(mut spare) = spare {
                spare.clear();
                return spare;
            }
        }
        Vec::with_capacity(capacity)
    }

    /// The offsets of a column of `rows` rows, so far only the first (0), with room for
    /// the rest (see [`vec`](Self::vec)).
    pub fn offsets(&'static self, rows: usize) -> Vec<T> {
        let mut offsets = self.vec(rows + 1);
        offsets.push(T::default());
        offsets
    }

    /// Keeps `vec` for the next column when it is big (past the spares kept, the oldest is
    /// freed).
    pub fn keep(&self, vec: Vec<T>) {
        if vec.capacity() * size_of::<T>() >= BIG {
            if let Ok(mut spares) = self.spares.lock() {
                if spares.len() >= self.kept {
                    spares.remove(0);
                }
                spares.push(vec);
            }
        }
    }

    /// The items as an Arrow buffer, without a copy. A big one is kept as the spare when
    /// Arrow releases it.
    pub fn lend_to_arrow(&'static self, vec: Vec<T>) -> Buffer {
        if vec.capacity() * size_of::<T>() < BIG {
            return Buffer::from_vec(vec);
        }
        let start = NonNull::new(vec.as_ptr().cast::<u8>().cast_mut())
            .expect("a vector's pointer is not null");
        let len = vec.len() * size_of::<T>();
        let owner = std::sync::Arc::new(KeptWhenReleased { vec, spare: self });
        // SAFETY: `start` points at the `len` initialised bytes of the vector, whose heap
        // allocation does not move when the vector is moved into its owner, and stays
        // until the owner is dropped, which Arrow does once the last buffer that refers to
        // it goes.
        unsafe { Buffer::from_custom_allocation(start, len, owner) }
    }
}

/// A big vector lent to Arrow: becomes the spare when Arrow drops it.
struct KeptWhenReleased<T: ArrowNativeType + std::panic::RefUnwindSafe> {
    vec: Vec<T>,
    spare: &'static Spare<T>,
}

impl<T: ArrowNativeType + std::panic::RefUnwindSafe> Drop for KeptWhenReleased<T> {
    fn drop(&mut self) {
        self.spare.keep(std::mem::take(&mut self.vec));
    }
}
