<?php

declare(strict_types=1);

namespace App\Repositories;

use App\Models\User;
use App\Contracts\{Repository, Cacheable as CacheContract};
use Illuminate\Support\Facades\DB;
use function App\Support\array_pluck;
use const App\Support\DEFAULT_LIMIT;

require_once __DIR__ . '/../bootstrap.php';

const MAX_PAGE_SIZE = 100;

/**
 * Find the first element matching a predicate.
 */
function first_where(array $items, callable $predicate): mixed
{
    foreach ($items as $item) {
        if ($predicate($item)) {
            return $item;
        }
    }
    return null;
}

/**
 * Users backed by the database.
 *
 * @implements Repository<User>
 */
#[Singleton]
final class UserRepository extends BaseRepository implements Repository, CacheContract
{
    use LogsQueries;
    use \App\Concerns\HasEvents;

    /** Default sort column. */
    public const ORDER_BY = 'created_at';
    private const TABLE = 'users';

    /** @var array<int, User> */
    private array $cache = [];
    protected ?Connection $connection = null;

    public function __construct(private readonly Connection $db)
    {
        parent::__construct($db);
    }

    /**
     * Load one user by id.
     */
    public function find(int $id): ?User
    {
        if (isset($this->cache[$id])) {
            return $this->cache[$id];
        }
        $row = DB::table(self::TABLE)->where('id', $id)->first();
        return $this->cache[$id] = User::fromRow($row);
    }

    public static function make(): static
    {
        return new static(new \App\Database\Connection());
    }

    // Every user's email address.
    public function emails(): array
    {
        return array_pluck($this->all(), 'email');
    }
}
