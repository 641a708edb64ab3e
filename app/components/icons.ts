// The icons the app uses, each lucide-react's data rendered by ./icon (why there).
// Import icons from here, not from lucide-react.
import {
  Activity as LucideActivity,
  AlertTriangle as LucideAlertTriangle,
  ArrowDown as LucideArrowDown,
  ArrowLeft as LucideArrowLeft,
  ArrowUp as LucideArrowUp,
  ArrowUpDown as LucideArrowUpDown,
  BadgeCheck as LucideBadgeCheck,
  Blocks as LucideBlocks,
  Building2 as LucideBuilding2,
  Calculator as LucideCalculator,
  Calendar as LucideCalendar,
  CalendarClock as LucideCalendarClock,
  CalendarPlus as LucideCalendarPlus,
  CalendarRange as LucideCalendarRange,
  ChartBar as LucideChartBar,
  CheckCircle2 as LucideCheckCircle2,
  Circle as LucideCircle,
  ClipboardList as LucideClipboardList,
  Clock as LucideClock,
  DollarSign as LucideDollarSign,
  Download as LucideDownload,
  Eye as LucideEye,
  FileCheck as LucideFileCheck,
  FileCode as LucideFileCode,
  FileText as LucideFileText,
  FlaskConical as LucideFlaskConical,
  FolderOpen as LucideFolderOpen,
  HardDrive as LucideHardDrive,
  Headphones as LucideHeadphones,
  Inbox as LucideInbox,
  LayoutDashboard as LucideLayoutDashboard,
  LayoutGrid as LucideLayoutGrid,
  LoaderCircle as LucideLoaderCircle,
  LogOut as LucideLogOut,
  Mail as LucideMail,
  MapPin as LucideMapPin,
  Menu as LucideMenu,
  MessageCircle as LucideMessageCircle,
  MessageSquare as LucideMessageSquare,
  Package as LucidePackage,
  PanelLeft as LucidePanelLeft,
  Percent as LucidePercent,
  Phone as LucidePhone,
  Play as LucidePlay,
  Plug as LucidePlug,
  Plus as LucidePlus,
  Radar as LucideRadar,
  Radio as LucideRadio,
  Receipt as LucideReceipt,
  ScrollText as LucideScrollText,
  Search as LucideSearch,
  ShieldAlert as LucideShieldAlert,
  ShieldCheck as LucideShieldCheck,
  Smartphone as LucideSmartphone,
  Target as LucideTarget,
  Timer as LucideTimer,
  Trash2 as LucideTrash2,
  TrendingUp as LucideTrendingUp,
  Truck as LucideTruck,
  User as LucideUser,
  UserCheck as LucideUserCheck,
  UserCog as LucideUserCog,
  UserPlus as LucideUserPlus,
  UserSearch as LucideUserSearch,
  Users as LucideUsers,
  Wallet as LucideWallet,
  Workflow as LucideWorkflow,
  X as LucideX,
  Zap as LucideZap,
} from 'lucide-react';
import { icon } from './icon';

export type { IconComponent, IconProps } from './icon';

export const Activity = /* @__PURE__ */ icon(LucideActivity);
export const AlertTriangle = /* @__PURE__ */ icon(LucideAlertTriangle);
export const ArrowDown = /* @__PURE__ */ icon(LucideArrowDown);
export const ArrowLeft = /* @__PURE__ */ icon(LucideArrowLeft);
export const ArrowUp = /* @__PURE__ */ icon(LucideArrowUp);
export const ArrowUpDown = /* @__PURE__ */ icon(LucideArrowUpDown);
export const BadgeCheck = /* @__PURE__ */ icon(LucideBadgeCheck);
export const Blocks = /* @__PURE__ */ icon(LucideBlocks);
export const Building2 = /* @__PURE__ */ icon(LucideBuilding2);
export const Calculator = /* @__PURE__ */ icon(LucideCalculator);
export const Calendar = /* @__PURE__ */ icon(LucideCalendar);
export const CalendarClock = /* @__PURE__ */ icon(LucideCalendarClock);
export const CalendarPlus = /* @__PURE__ */ icon(LucideCalendarPlus);
export const CalendarRange = /* @__PURE__ */ icon(LucideCalendarRange);
export const ChartBar = /* @__PURE__ */ icon(LucideChartBar);
export const CheckCircle2 = /* @__PURE__ */ icon(LucideCheckCircle2);
export const Circle = /* @__PURE__ */ icon(LucideCircle);
export const ClipboardList = /* @__PURE__ */ icon(LucideClipboardList);
export const Clock = /* @__PURE__ */ icon(LucideClock);
export const DollarSign = /* @__PURE__ */ icon(LucideDollarSign);
export const Download = /* @__PURE__ */ icon(LucideDownload);
export const Eye = /* @__PURE__ */ icon(LucideEye);
export const FileCheck = /* @__PURE__ */ icon(LucideFileCheck);
export const FileCode = /* @__PURE__ */ icon(LucideFileCode);
export const FileText = /* @__PURE__ */ icon(LucideFileText);
export const FlaskConical = /* @__PURE__ */ icon(LucideFlaskConical);
export const FolderOpen = /* @__PURE__ */ icon(LucideFolderOpen);
export const HardDrive = /* @__PURE__ */ icon(LucideHardDrive);
export const Headphones = /* @__PURE__ */ icon(LucideHeadphones);
export const Inbox = /* @__PURE__ */ icon(LucideInbox);
export const LayoutDashboard = /* @__PURE__ */ icon(LucideLayoutDashboard);
export const LayoutGrid = /* @__PURE__ */ icon(LucideLayoutGrid);
export const LoaderCircle = /* @__PURE__ */ icon(LucideLoaderCircle);
export const LogOut = /* @__PURE__ */ icon(LucideLogOut);
export const Mail = /* @__PURE__ */ icon(LucideMail);
export const MapPin = /* @__PURE__ */ icon(LucideMapPin);
export const Menu = /* @__PURE__ */ icon(LucideMenu);
export const MessageCircle = /* @__PURE__ */ icon(LucideMessageCircle);
export const MessageSquare = /* @__PURE__ */ icon(LucideMessageSquare);
export const Package = /* @__PURE__ */ icon(LucidePackage);
export const PanelLeft = /* @__PURE__ */ icon(LucidePanelLeft);
export const Percent = /* @__PURE__ */ icon(LucidePercent);
export const Phone = /* @__PURE__ */ icon(LucidePhone);
export const Play = /* @__PURE__ */ icon(LucidePlay);
export const Plug = /* @__PURE__ */ icon(LucidePlug);
export const Plus = /* @__PURE__ */ icon(LucidePlus);
export const Radar = /* @__PURE__ */ icon(LucideRadar);
export const Radio = /* @__PURE__ */ icon(LucideRadio);
export const Receipt = /* @__PURE__ */ icon(LucideReceipt);
export const ScrollText = /* @__PURE__ */ icon(LucideScrollText);
export const Search = /* @__PURE__ */ icon(LucideSearch);
export const ShieldAlert = /* @__PURE__ */ icon(LucideShieldAlert);
export const ShieldCheck = /* @__PURE__ */ icon(LucideShieldCheck);
export const Smartphone = /* @__PURE__ */ icon(LucideSmartphone);
export const Target = /* @__PURE__ */ icon(LucideTarget);
export const Timer = /* @__PURE__ */ icon(LucideTimer);
export const Trash2 = /* @__PURE__ */ icon(LucideTrash2);
export const TrendingUp = /* @__PURE__ */ icon(LucideTrendingUp);
export const Truck = /* @__PURE__ */ icon(LucideTruck);
export const User = /* @__PURE__ */ icon(LucideUser);
export const UserCheck = /* @__PURE__ */ icon(LucideUserCheck);
export const UserCog = /* @__PURE__ */ icon(LucideUserCog);
export const UserPlus = /* @__PURE__ */ icon(LucideUserPlus);
export const UserSearch = /* @__PURE__ */ icon(LucideUserSearch);
export const Users = /* @__PURE__ */ icon(LucideUsers);
export const Wallet = /* @__PURE__ */ icon(LucideWallet);
export const Workflow = /* @__PURE__ */ icon(LucideWorkflow);
export const X = /* @__PURE__ */ icon(LucideX);
export const Zap = /* @__PURE__ */ icon(LucideZap);
