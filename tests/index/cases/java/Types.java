package com.example.inventory;

import java.io.Serializable;
import java.time.Instant;
import javax.annotation.Nonnull;

/** Something with a stock keeping unit. */
public interface Stocked extends Comparable<Stocked>, Serializable {
    /** Number of units in the store. */
    int CAPACITY = 1000;

    String sku();

    default int compareTo(Stocked other) {
        return sku().compareTo(other.sku());
    }
}

/** An item of stock. */
public record Item(@Nonnull String sku, int quantity, Instant updated) implements Stocked {
    public Item {
        if (quantity < 0) {
            throw new IllegalArgumentException("negative quantity");
        }
    }

    static Item of(String sku) {
        return new Item(sku, 0, Instant.now());
    }
}

/** Where an item is stored. */
enum Location {
    /** In the warehouse. */
    WAREHOUSE("W"),
    STORE("S") {
        @Override
        boolean isPublic() {
            return true;
        }
    };

    private final String code;

    Location(String code) {
        this.code = code;
    }

    boolean isPublic() {
        return false;
    }
}

/** Marks fields checked by the auditor. */
@Retention(RetentionPolicy.RUNTIME)
@interface Audited {
    String reason() default "";
    int level() default 1;
}

abstract class Repository<T extends Stocked, ID> implements AutoCloseable {
    protected abstract T load(ID id) throws java.io.IOException;

    /** Events raised by a repository. */
    public static class Event extends java.util.EventObject {
        private static final long serialVersionUID = 1L;

        public Event(Object source) {
            super(source);
        }

        /** The kinds of event. */
        public enum Kind { LOADED, SAVED }

        interface Listener {
            void on(Event event, Kind kind);
        }
    }

    @Override
    public void close() {
        listeners.clear();
    }

    private final java.util.List<Event.Listener> listeners = new java.util.ArrayList<>();

    void notify(Event.Kind kind) {
        Event event = new Event(this);
        for (Event.Listener listener : listeners) {
            listener.on(event, kind);
        }
        Runnable r = new Runnable() {
            @Override
            public void run() {
                System.out.println(kind);
            }
        };
        r.run();
    }
}
