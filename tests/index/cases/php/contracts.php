<?php

namespace App\Contracts {

    /**
     * Anything stored by key.
     */
    interface Repository
    {
        public function find(int $id): ?object;
    }

    /** Reusable timestamp helpers. */
    trait HasTimestamps
    {
        public function touch(): void
        {
            $this->updatedAt = new \DateTimeImmutable();
        }
    }

    enum Status: string
    {
        case Active = 'active';
        case Banned = 'banned';

        public function label(): string
        {
            return ucfirst($this->value);
        }
    }
}

namespace {
    include 'legacy/functions.php';

    function legacy_helper($x)
    {
        return App\Contracts\Status::from($x)?->label();
    }
}
