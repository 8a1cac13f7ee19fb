import type { Sandbox, User } from '../context';
import type { Router } from '../http';

export function registerLinks(_router: Router<User>, _sb: Sandbox): void {}
