import type { Sandbox, User } from '../context';
import type { Router } from '../http';

export function registerFiles(_router: Router<User>, _sb: Sandbox): void {}
