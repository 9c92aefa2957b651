//! The buffers of big output columns. Writing a column of tens of megabytes into fresh
//! memory costs the kernel a page fault and a page cleared for every 4 KiB, about a third
//! of the time of decoding it: the last big buffer of each kind that Arrow releases is
//! kept for the next column (batch after batch, each column is about as big as the one
//! before), so that a run of columns pays for its memory once. (Asking for transparent huge
//! pages instead made the first column slower, by the kernel's compaction, and the later
//! ones no faster than a kept buffer.)

use arrow_buffer::{ArrowNativeType, Buffer};
use std::ptr::NonNull;
use std::sync::Mutex;

/// From this many bytes on a buffer is big.
const BIG: usize = 4 << 20;

/// The last big buffer of one kind released, kept for the next column.
pub struct Spare<T>(Mutex<Option<Vec<T>>>);

/// Output bytes.
pub static BYTES: Spare<u8> = Spare(Mutex::new(None));
/// 32-bit row offsets.
pub static NARROW_OFFSETS: Spare<i32> = Spare(Mutex::new(None));
/// 64-bit row offsets.
pub static WIDE_OFFSETS: Spare<i64> = Spare(Mutex::new(None));

impl<T: ArrowNativeType + std::panic::RefUnwindSafe> Spare<T> {
    /// An empty vector with room for `capacity` items: the spare one when it fits without
    /// wasting more than half of itself, else a new one.
    pub fn vec(&'static self, capacity: usize) -> Vec<T> {
        if capacity * size_of::<T>() >= BIG {
            let spare = self.0.lock().map(|mut spare| spare.take()).ok().flatten();
            let fits = |s: &Vec<T>| (capacity..=2 * capacity).contains(&s.capacity());
            if let Some(mut spare) = spare.filter(fits) {
                spare.clear();
                return spare;
            }
        }
        Vec::with_capacity(capacity)
    }

    /// Keeps `vec` for the next column when it is big (the spare it replaces is freed).
    pub fn keep(&self, vec: Vec<T>) {
        if vec.capacity() * size_of::<T>() >= BIG {
            if let Ok(mut spare) = self.0.lock() {
                *spare = Some(vec);
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
