import type { Page, Sorting } from '../../persistence/repositories/query-support.js';

export interface User {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

export interface Group {
  id: string;
  name: string | null;
  type: string | null;
}

export interface UserQuery extends Page {
  id?: string;
  idIn?: string[];
  firstName?: string;
  firstNameLike?: string;
  lastName?: string;
  lastNameLike?: string;
  email?: string;
  emailLike?: string;
  memberOfGroup?: string;
  memberOfTenant?: string;
  /** Users who may start this process definition (candidate starter users, or members of its starter groups). */
  potentialStarter?: string;
  sorting?: Sorting<'userId' | 'firstName' | 'lastName' | 'email'>[];
}

export interface GroupQuery extends Page {
  id?: string;
  idIn?: string[];
  name?: string;
  nameLike?: string;
  type?: string;
  member?: string;
  memberOfTenant?: string;
  sorting?: Sorting<'id' | 'name' | 'type'>[];
}

export interface Tenant {
  id: string;
  name: string | null;
}

export interface TenantQuery extends Page {
  id?: string;
  idIn?: string[];
  name?: string;
  nameLike?: string;
  /** Tenants this user is a member of (with includingGroupsOfUser also through its groups). */
  userMember?: string;
  groupMember?: string;
  includingGroupsOfUser?: boolean;
  sorting?: Sorting<'id' | 'name'>[];
}
