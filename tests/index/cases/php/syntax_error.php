<?php

namespace App\Broken;

/** Before the error. */
class Before
{
    public function ok(): string
    {
        return strtoupper('ok');
    }
}

function broken($a, $b
{
    return $a + ;
}

/** After the error. */
class After
{
    public function fine(): bool
    {
        return true;
    }
}
