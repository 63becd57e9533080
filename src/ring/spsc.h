/* spsc.h - bounded single-producer/single-consumer lock-free ring of
 * fixed-size elements (C11 atomics, acquire/release).  See spsc.c. */
#ifndef NVS_SPSC_H
#define NVS_SPSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spsc;

/* Allocates a ring of @capacity (rounded up to a power of two) elements of
 * @elem_size bytes.  Returns NULL on allocation failure.  Caller frees. */
struct spsc *spsc_new(size_t elem_size, size_t capacity);
/* NULL-safe. */
void spsc_free(struct spsc *r);
/* Producer: copies @elem in.  Never blocks: when full, the element is dropped,
 * the drop counter incremented and -ENOBUFS returned; 0 otherwise. */
int spsc_push(struct spsc *r, const void *elem);
/* Producer: room for @n more elements now (it only grows until the next
 * push): a producer that pushes a record of several elements pushes all
 * or none. */
bool spsc_room(struct spsc *r, size_t n);
/* Producer: the next slot, to be filled in place (no copy), or NULL when
 * the ring is full; spsc_publish() then hands it to the consumer.  Until
 * then it is the producer's alone, and the next reserve returns it again. */
void *spsc_reserve(struct spsc *r);
void spsc_publish(struct spsc *r);
/* Producer: counts a drop it chose (a record that did not fit whole). */
void spsc_drop(struct spsc *r);
/* Consumer: copies the oldest element to @out.  Returns 0, or -EAGAIN when
 * empty. */
int spsc_pop(struct spsc *r, void *out);
/* Consumer: the oldest element where it lies in the ring (no copy), NULL
 * when empty; it stays the consumer's until spsc_release(), which must
 * follow before the next peek or pop. */
const void *spsc_peek(struct spsc *r);
/* Consumer: gives the element spsc_peek() returned back to the producer. */
void spsc_release(struct spsc *r);
/* Either side: elements pushed and not yet popped (a snapshot). */
size_t spsc_count(const struct spsc *r);
/* Either side: elements dropped because the ring was full. */
uint64_t spsc_dropped(const struct spsc *r);
size_t spsc_capacity(const struct spsc *r);

#endif
